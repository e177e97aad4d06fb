package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.Config;
import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.Settings;
import io.github.kubeharness.internal.process.Watchdog;
import java.util.List;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The {@code k3s} backend: a whole k3s cluster in one Testcontainer ({@code rancher/k3s}), where
 * pods really run. Add-ons a controller test does not need are disabled, so it starts faster.
 */
final class K3sControlPlane extends AbstractControlPlane {

  static final String IMAGE_SETTING = Settings.K3S_IMAGE;

  /** k3s server flags: no ingress, load balancer, metrics, storage or network policy add-ons. */
  static final List<String> SERVER_ARGS =
      List.of(
          "server",
          "--disable=traefik",
          "--disable=servicelb",
          "--disable=metrics-server",
          "--disable=local-storage",
          "--disable-network-policy",
          "--tls-san=127.0.0.1");

  /**
   * Why k3s does not run on the host's network: {@code --bind-address} confines only k3s's API
   * server and supervisor. Its kubelet (10250), kube-proxy's health port (10256), NodePorts and
   * flannel's VXLAN endpoint (udp 8472) would open on every interface of the machine, and the
   * kubelet and flannel cannot be moved to loopback without breaking logs, exec and pod traffic.
   */
  static final String NO_HOST_NETWORK =
      "The k3s backend does not run on the host's network (kubeharness.network=host): there its"
          + " kubelet (port 10250), kube-proxy (10256, NodePorts) and flannel (udp 8472) would"
          + " listen on every interface of this machine, not only 127.0.0.1. Use the default"
          + " bridge network (a Docker engine with its default bridge), or the container backend,"
          + " which runs on the host's network on loopback only.";

  /** The k3s container, not started: its flags, and its ports published on loopback only. */
  static K3sContainer container(String image, NetworkMode network) {
    if (network == NetworkMode.HOST) {
      throw new KubeHarnessException(NO_HOST_NETWORK);
    }
    K3sContainer k3s =
        new K3sContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("rancher/k3s"));
    k3s.withCommand(SERVER_ARGS.toArray(String[]::new));
    // 6443 (API server) and 8443, which K3sContainer exposes, on the host's loopback only.
    LoopbackPorts.publishOnLoopback(k3s);
    return k3s;
  }

  private final BackendOptions.K3s k3sOptions;

  K3sControlPlane(ControlPlaneOptions options, BackendOptions.K3s k3s) {
    super(options, Backend.K3S);
    this.k3sOptions = k3s;
  }

  /** {@code rancher/k3s:v1.37.2-k3s1} for Kubernetes 1.37.2, unless the k3s image option says. */
  static String image(String kubernetesVersion, BackendOptions.K3s k3s) {
    return k3s.image().orElse("rancher/k3s:v" + kubernetesVersion + "-k3s1");
  }

  @Override
  void startComponents() {
    if (k3sOptions.network() == NetworkMode.HOST) {
      throw new KubeHarnessException(NO_HOST_NETWORK);
    }
    String docker = DockerCheck.problem();
    if (docker != null) {
      throw BackendUnavailable.error("The k3s backend", "Docker is not reachable: " + docker, null);
    }
    String image = image(options.kubernetesVersion(), k3sOptions);
    K3sContainer k3s = container(image, k3sOptions.network());
    k3s.withStartupTimeout(options.startTimeout());
    try {
      k3s.start();
    } catch (RuntimeException e) {
      throw new KubeHarnessException(
          "k3s ("
              + image
              + ") did not start: "
              + e.getMessage()
              + ". The image must be present or pullable (docker pull "
              + image
              + "), and Docker"
              + " must allow privileged containers; set "
              + IMAGE_SETTING
              + " for another tag.",
          e);
    }
    String id = k3s.getContainerId();
    Watchdog.get().watchContainer(id);
    started(
        () -> {
          try {
            k3s.stop();
          } finally {
            Watchdog.get().unwatchContainer(id);
          }
        });
    newRunDirectory();
    String kubeconfig = k3s.getKubeConfigYaml();
    connected(Config.fromKubeconfig(kubeconfig).getMasterUrl(), kubeconfig, null);
  }
}
