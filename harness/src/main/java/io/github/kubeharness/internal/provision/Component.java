package io.github.kubeharness.internal.provision;

import java.util.EnumSet;
import java.util.Set;

/**
 * An executable of the control plane, by the file name envtest's asset layout uses; the node's
 * executables (for the kind node image) follow the same pattern.
 */
public enum Component {
  ETCD("etcd", "TEST_ASSET_ETCD"),
  KUBE_APISERVER("kube-apiserver", "TEST_ASSET_KUBE_APISERVER"),
  KUBE_CONTROLLER_MANAGER("kube-controller-manager", "TEST_ASSET_KUBE_CONTROLLER_MANAGER"),
  KUBECTL("kubectl", "TEST_ASSET_KUBECTL"),
  KUBE_SCHEDULER("kube-scheduler", "TEST_ASSET_KUBE_SCHEDULER"),
  KUBELET("kubelet", "TEST_ASSET_KUBELET"),
  KUBEADM("kubeadm", "TEST_ASSET_KUBEADM"),
  KUBE_PROXY("kube-proxy", "TEST_ASSET_KUBE_PROXY");

  /**
   * What a kind node needs beyond the control plane's binaries: its kubelet, kubeadm to bootstrap
   * it, and the two control-plane programs that run as static pods or DaemonSets only on a node.
   */
  public static final Set<Component> NODE =
      EnumSet.of(KUBE_SCHEDULER, KUBELET, KUBEADM, KUBE_PROXY);

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
  String assetVariable() {
    return assetVariable;
  }
}
