package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.Config;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.KubeUser;
import io.github.kubeharness.Profile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code existing} backend: a cluster named by the current kubeconfig ({@code KUBECONFIG} or
 * {@code ~/.kube/config}), such as kind. Nothing is started or stopped.
 */
public final class ExistingCluster implements ControlPlane {

  private final Path kubeconfigFile;
  private String kubeconfig;

  public ExistingCluster() {
    String env = System.getenv("KUBECONFIG");
    this.kubeconfigFile =
        env != null && !env.isBlank()
            ? Path.of(env.split(java.io.File.pathSeparator)[0])
            : Path.of(System.getProperty("user.home"), ".kube", "config");
  }

  @Override
  public void start() {
    try {
      kubeconfig = Files.readString(kubeconfigFile);
    } catch (IOException e) {
      throw new KubeHarnessException(
          "The existing backend needs a kubeconfig, but "
              + kubeconfigFile
              + " cannot be read ("
              + e
              + "). Set KUBECONFIG, or use the local backend (-Dkubeharness.backend=local).",
          e);
    }
  }

  @Override
  public void stop() {}

  @Override
  public boolean isRunning() {
    return kubeconfig != null;
  }

  @Override
  public Profile profile() {
    return Profile.STANDARD;
  }

  @Override
  public String apiServerUrl() {
    // fabric8 normalizes the server URL with a trailing slash; every backend answers without one.
    return clientConfig().getMasterUrl().replaceFirst("/+$", "");
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
  public Config clientConfig() {
    return Config.fromKubeconfig(kubeconfig);
  }

  @Override
  public KubeUser addUser(String name, List<String> groups) {
    throw new UnsupportedOperationException(
        "addUser needs the cluster's CA key, which only the local backend has. Test RBAC on the"
            + " existing backend with ServiceAccounts (@ControllerTest(rbac = ...)).");
  }
}
