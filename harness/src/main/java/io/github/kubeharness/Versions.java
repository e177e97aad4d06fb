package io.github.kubeharness;

/** The versions this release of kube-harness is pinned to and tested with. */
public final class Versions {

  /**
   * Default Kubernetes version of the control plane. Its etcd version is the one its own {@code
   * go.mod} requires, so the pair is always one Kubernetes itself builds and tests with.
   */
  public static final String KUBERNETES = "1.37.2";

  private Versions() {}

  /** {@code version} without a leading {@code v}; fails unless it is MAJOR.MINOR.PATCH. */
  static String normalize(String version) {
    String v = version.trim();
    if (v.startsWith("v")) {
      v = v.substring(1);
    }
    if (!v.matches("\\d+\\.\\d+\\.\\d+")) {
      throw new KubeHarnessException(
          "Kubernetes version '"
              + version
              + "' is not of the form MAJOR.MINOR.PATCH (for example "
              + Versions.KUBERNETES
              + "). Fix "
              + Settings.describe(Settings.KUBERNETES_VERSION)
              + " or the kubernetesVersion option.");
    }
    return v;
  }
}
