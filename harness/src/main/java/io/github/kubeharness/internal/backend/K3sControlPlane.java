package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.Config;
import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.Profile;
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

  K3sControlPlane(ControlPlaneOptions options) {
    super(options, Backend.K3S);
  }

  /** {@code rancher/k3s:v1.37.2-k3s1} for Kubernetes 1.37.2, unless {@link #IMAGE_SETTING} says. */
  static String image(String kubernetesVersion) {
    return Settings.get(IMAGE_SETTING).orElse("rancher/k3s:v" + kubernetesVersion + "-k3s1");
  }

  @Override
  void startComponents() {
    String docker = DockerCheck.problem();
    if (docker != null) {
      throw Backends.unavailable(
          "The k3s backend", "Docker is not reachable (" + docker + ")", null);
    }
    String image = image(options.kubernetesVersion());
    K3sContainer k3s =
        new K3sContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("rancher/k3s"));
    k3s.withCommand(SERVER_ARGS.toArray(String[]::new));
    if (options.network() == NetworkMode.HOST) {
      k3s.withNetworkMode("host");
    }
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

  /** k3s runs every controller, kubelet included. */
  @Override
  public Profile profile() {
    return Profile.STANDARD;
  }
}
