package io.github.kubeharness.integration;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.PrivateFiles;
import io.github.kubeharness.internal.process.RunDirectory;
import java.nio.file.Path;

/**
 * The JVM's control plane for a {@link ClusterRequest}, prepared for an application before it
 * starts: the CRDs installed, the manifests applied, and the kubeconfig the application is given
 * (the admin's, or one with the token of its own ServiceAccount). What the Spring and the Quarkus
 * integration do alike; each then hands the kubeconfig over its own way.
 */
public final class PreparedCluster {

  private final ControlPlane controlPlane;
  private final String applicationKubeconfig;
  private final String serviceAccount;
  private RunDirectory files;

  private PreparedCluster(
      ControlPlane controlPlane, String applicationKubeconfig, String serviceAccount) {
    this.controlPlane = controlPlane;
    this.applicationKubeconfig = applicationKubeconfig;
    this.serviceAccount = serviceAccount;
  }

  /**
   * Gets the JVM's control plane for {@code request} ({@link SharedControlPlanes#getForJvm}),
   * installs its CRDs and applies its manifests; a failure names {@code where}
   * ({@code @EnableKubeHarness on MyIT}).
   */
  public static PreparedCluster prepare(ClusterRequest request, String where) {
    try {
      ControlPlane controlPlane =
          SharedControlPlanes.getForJvm(
              request.backend(), request.profile(), request.kubernetesVersion(), where);
      controlPlane.installCrds(request.crds(), request.crdClasses());
      if (!request.manifests().isEmpty()) {
        controlPlane.apply(request.manifests());
      }
      String kubeconfig;
      if (request.serviceAccount().isBlank()) {
        kubeconfig = controlPlane.kubeconfig();
      } else {
        String[] account = AnnotationOptions.serviceAccount(request.serviceAccount(), where);
        kubeconfig = controlPlane.serviceAccountKubeconfig(account[0], account[1]);
      }
      return new PreparedCluster(controlPlane, kubeconfig, request.serviceAccount());
    } catch (KubeHarnessException e) {
      throw new IllegalStateException(where + ": " + e.getMessage(), e);
    }
  }

  /** The control plane the application runs against. */
  public ControlPlane controlPlane() {
    return controlPlane;
  }

  /** The application's kubeconfig (YAML): the admin's, or its ServiceAccount's. */
  public String applicationKubeconfig() {
    return applicationKubeconfig;
  }

  /**
   * {@link #applicationKubeconfig()} as a file: the control plane's own for the admin, else a new
   * owner-only file (it holds a token) written with {@link #privateFile}.
   */
  public Path applicationKubeconfigFile() {
    if (serviceAccount.isBlank()) {
      return controlPlane.kubeconfigFile();
    }
    return privateFile(serviceAccount.replace('/', '-') + ".kubeconfig", applicationKubeconfig);
  }

  /**
   * Writes a credential of the application ({@code name}: a plain file name) as a new owner-only
   * file in a run directory of this cluster's own under the user's owner-only run root, which the
   * watchdog deletes when the JVM exits, {@code kill -9} included; returns its path. A framework
   * hands the application such paths, never the secrets themselves: a system property is readable
   * by every local user in {@code /proc/<pid>/cmdline} once it is passed to a launched JVM.
   */
  public synchronized Path privateFile(String name, String content) {
    if (files == null) {
      // Never deleted by this JVM: the application may read its files until the end; the watchdog
      // removes the directory however the JVM ends.
      files = RunDirectory.create(RunDirectory.defaultRoot());
    }
    return PrivateFiles.write(files.path().resolve(name), content);
  }

  /** Who the application acts as, for a log line: {@code admin} or the ServiceAccount. */
  public String identity() {
    return serviceAccount.isBlank() ? "admin" : serviceAccount;
  }
}
