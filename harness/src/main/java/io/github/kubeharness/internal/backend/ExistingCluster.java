package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.Config;
import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code existing} backend: a cluster named by the current kubeconfig ({@code KUBECONFIG} or
 * {@code ~/.kube/config}), such as kind. Nothing is started or stopped.
 */
final class ExistingCluster extends AbstractControlPlane {

  private final Path kubeconfigFile;

  ExistingCluster(ControlPlaneOptions options) {
    super(options, Backend.EXISTING);
    String env = System.getenv("KUBECONFIG");
    this.kubeconfigFile =
        env != null && !env.isBlank()
            ? Path.of(env.split(java.io.File.pathSeparator)[0])
            : Path.of(System.getProperty("user.home"), ".kube", "config");
  }

  @Override
  void startComponents() {
    String kubeconfig;
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
    connected(Config.fromKubeconfig(kubeconfig).getMasterUrl(), kubeconfig, kubeconfigFile);
  }
}
