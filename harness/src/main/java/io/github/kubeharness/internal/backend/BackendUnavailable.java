package io.github.kubeharness.internal.backend;

import io.github.kubeharness.KubeHarnessException;

/**
 * The one message for a backend that cannot run on this machine, with every other way to get a
 * cluster. Apart from {@link Backends}, which makes the backends, so that a backend refusing to
 * start does not depend back on what made it.
 */
final class BackendUnavailable {

  private BackendUnavailable() {}

  /** {@code what} (a backend) cannot run, because {@code why}; what a user can do instead. */
  static KubeHarnessException error(String what, String why, Throwable cause) {
    return new KubeHarnessException(
        what
            + " is not available: "
            + why
            + ". Other ways to get a cluster: -Dkubeharness.backend=local (etcd and kube-apiserver"
            + " as processes; binaries are built from Go modules or taken from"
            + " KUBEBUILDER_ASSETS), or -Dkubeharness.backend=existing with a kubeconfig (kind).",
        cause);
  }
}
