package io.github.kubeharness.internal.process;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Hands out free TCP ports on 127.0.0.1.
 *
 * <p>NB: a port is free when asked and bound later by a child process, so two control planes
 * started at once could be handed the same port. Ports handed out are remembered for the life of
 * the JVM and never handed out twice; a clash with another JVM is caught by the component's start
 * check (the process exits unable to bind: {@link PortTaken}) and the start is retried on new
 * ports.
 */
public final class FreePorts {

  // JVM-wide on purpose: the ports are a resource of the whole machine, not of one control plane.
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
  private static final Queue<Integer> FORCED = new ConcurrentLinkedQueue<>();

  private FreePorts() {}

  /**
   * Makes the next call hand out {@code port} whether it is free or not: lets a test drive a start
   * into the port clash that another process can cause at any time, and see it recover.
   */
  public static void handOutNext(int port) {
    FORCED.add(port);
  }

  /** A port on 127.0.0.1 that was free just now and was never handed out before in this JVM. */
  public static int next() {
    Integer forced = FORCED.poll();
    if (forced != null) {
      return forced;
    }
    for (int attempt = 0; attempt < 100; attempt++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        socket.setReuseAddress(false);
        int port = socket.getLocalPort();
        if (HANDED_OUT.add(port)) {
          return port;
        }
      } catch (IOException e) {
        throw new KubeHarnessException(
            "Cannot open a socket on 127.0.0.1 to find a free port: " + e.getMessage(), e);
      }
    }
    throw new KubeHarnessException("No free TCP port found on 127.0.0.1 after 100 attempts.");
  }
}
