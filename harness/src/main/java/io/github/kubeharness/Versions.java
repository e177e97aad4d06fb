package io.github.kubeharness;

/** The versions this release of kube-harness is pinned to and tested with. */
public final class Versions {

  /**
   * Default Kubernetes version of the control plane. Its etcd version is the one its own {@code
   * go.mod} requires, so the pair is always one Kubernetes itself builds and tests with.
   */
  public static final String KUBERNETES = "1.37.2";

  private Versions() {}
}
