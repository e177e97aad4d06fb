package io.github.kubeharness.internal.provision;

/** An executable of the control plane, by the file name envtest's asset layout uses. */
public enum Component {
  ETCD("etcd", "TEST_ASSET_ETCD"),
  KUBE_APISERVER("kube-apiserver", "TEST_ASSET_KUBE_APISERVER"),
  KUBE_CONTROLLER_MANAGER("kube-controller-manager", "TEST_ASSET_KUBE_CONTROLLER_MANAGER"),
  KUBECTL("kubectl", "TEST_ASSET_KUBECTL");

  private final String fileName;
  private final String assetVariable;

  Component(String fileName, String assetVariable) {
    this.fileName = fileName;
    this.assetVariable = assetVariable;
  }

  /** File name in an assets directory or the cache, e.g. {@code kube-apiserver}. */
  public String fileName() {
    return fileName;
  }

  /** envtest's per-binary override variable, e.g. {@code TEST_ASSET_KUBE_APISERVER}. */
  public String assetVariable() {
    return assetVariable;
  }
}
