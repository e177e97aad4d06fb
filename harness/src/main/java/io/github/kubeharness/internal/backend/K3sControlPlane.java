package io.github.kubeharness.internal.backend;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.KubeUser;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.Profile;
import io.github.kubeharness.Settings;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.ShutdownHooks;
import io.github.kubeharness.internal.process.Watchdog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The {@code k3s} backend: a whole k3s cluster in one Testcontainer ({@code rancher/k3s}), where
 * pods really run. Add-ons a controller test does not need are disabled, so it starts faster.
 */
final class K3sControlPlane implements ControlPlane {

  static final String IMAGE_SETTING = "kubeharness.k3s.image";

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

  private final ControlPlaneOptions options;
  private K3sContainer container;
  private RunDirectory run;
  private String kubeconfig;
  private Path kubeconfigFile;

  K3sControlPlane(ControlPlaneOptions options) {
    this.options = options;
  }

  /** {@code rancher/k3s:v1.37.2-k3s1} for Kubernetes 1.37.2, unless {@link #IMAGE_SETTING} says. */
  static String image(String kubernetesVersion) {
    return Settings.get(IMAGE_SETTING).orElse("rancher/k3s:v" + kubernetesVersion + "-k3s1");
  }

  @Override
  public synchronized void start() {
    if (container != null) {
      return;
    }
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
    container = k3s;
    Watchdog.get().watchContainer(k3s.getContainerId());
    run = RunDirectory.create(RunDirectory.defaultRoot());
    kubeconfig = k3s.getKubeConfigYaml();
    kubeconfigFile = run.path().resolve("kubeconfig");
    try {
      Files.writeString(kubeconfigFile, kubeconfig);
    } catch (IOException e) {
      stop();
      throw new KubeHarnessException("Cannot write " + kubeconfigFile + ": " + e, e);
    }
    ShutdownHooks.register(this);
  }

  @Override
  public synchronized void stop() {
    if (container == null) {
      return;
    }
    String id = container.getContainerId();
    try {
      container.stop();
    } finally {
      Watchdog.get().unwatchContainer(id);
      container = null;
      if (run != null) {
        run.close();
      }
      ShutdownHooks.unregister(this);
    }
  }

  @Override
  public boolean isRunning() {
    return container != null;
  }

  @Override
  public Profile profile() {
    return Profile.STANDARD;
  }

  @Override
  public String apiServerUrl() {
    return clientConfig().getMasterUrl();
  }

  @Override
  public String kubeconfig() {
    return kubeconfig;
  }

  @Override
  public Path kubeconfigFile() {
    return kubeconfigFile;
  }

  @Override
  public KubeUser addUser(String name, List<String> groups) {
    throw new UnsupportedOperationException(
        "addUser is available on the local and container backends, whose CA kube-harness holds;"
            + " on k3s test RBAC with ServiceAccounts (@ControllerTest(rbac = ...)).");
  }
}
