package io.github.kubeharness.internal.process;

import io.github.kubeharness.KubeHarnessException;

/**
 * A component could not bind its port: it was free when handed out ({@link FreePorts}) and another
 * process took it before the component bound it. Raised where a start sees the process exit, so
 * that the start is tried again on new ports by type, not by reading the message.
 */
public final class PortTaken extends KubeHarnessException {

  // What Go's net package (etcd, the Kubernetes components, KWOK) says when bind() fails so.
  private static final String BIND_FAILURE = "address already in use";

  PortTaken(String message) {
    super(message);
  }

  /** A failure of a process's start: a {@link PortTaken} when its log shows the bind failure. */
  static KubeHarnessException orOther(String message, String logExcerpt, Exception cause) {
    if (logExcerpt.contains(BIND_FAILURE)) {
      PortTaken taken = new PortTaken(message);
      if (cause != null) {
        taken.initCause(cause);
      }
      return taken;
    }
    return new KubeHarnessException(message, cause);
  }
}
