package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.controlplane.ControllerManagerRestart;
import io.github.kubeharness.internal.manifest.CrdInstaller;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One API server shared by every test class of the same configuration in this JVM, kept in the root
 * store and closed by JUnit after the last test. Owns the admin client and the record of installed
 * CRDs.
 */
public final class SharedCluster implements JUnitResource {

  /** The user the controllers act as when they do not run under {@code rbac}. */
  static final String CONTROLLER_USER = "kube-harness-controller";

  private final ControlPlane controlPlane;
  private final KubernetesClient admin;
  private final KubernetesClient controllers;
  private final CrdInstaller crds;

  private SharedCluster(ControlPlane controlPlane) {
    this.controlPlane = controlPlane;
    this.admin = controlPlane.newClient();
    this.controllers = controllerClient(controlPlane, admin);
    this.crds = new CrdInstaller(admin);
  }

  /**
   * A cluster-admin client of its own for the controllers, so that the report's API requests tell
   * the controllers' requests from the test's. Only backends whose CA kube-harness holds can issue
   * one; the others have no audit log for the report either, and share the admin client.
   */
  private static KubernetesClient controllerClient(
      ControlPlane controlPlane, KubernetesClient admin) {
    if (controlPlane.auditLogFile().isEmpty()) {
      return admin;
    }
    return controlPlane.addUser(CONTROLLER_USER, List.of("system:masters")).newClient();
  }

  /** Starts (or, for the existing backend, connects to) the API server for {@code config}. */
  static SharedCluster start(ExtensionConfig config) {
    ClasspathCheck.requireUsableFabric8();
    ControlPlane controlPlane =
        ControlPlane.create(
            ControlPlaneOptions.builder()
                .withBackend(config.backend())
                .withProfile(config.profile())
                .withKubernetesVersion(config.kubernetesVersion())
                // The audit log feeds the "API requests" part of failure reports.
                .withAuditLog(true)
                .build());
    controlPlane.start();
    try {
      return new SharedCluster(controlPlane);
    } catch (RuntimeException e) {
      controlPlane.stop();
      throw e;
    }
  }

  public ControlPlane controlPlane() {
    return controlPlane;
  }

  public KubernetesClient admin() {
    return admin;
  }

  /** Cluster-admin rights under the controllers' own name (the admin client where none exists). */
  KubernetesClient controllerAdmin() {
    return controllers;
  }

  /**
   * Installs the CRDs a test class names. On a {@code standard} control plane that kube-harness
   * runs, new CRDs restart kube-controller-manager: its garbage collector learns about new resource
   * types only every 30 s, so owner references to a brand-new kind would otherwise be ignored that
   * long.
   */
  void installCrds(ExtensionConfig config) {
    int changed = crds.install(config.crds(), config.crdClasses());
    if (changed > 0 && controlPlane instanceof ControllerManagerRestart restartable) {
      restartable.restartControllerManager();
    }
  }

  /** The apiserver's audit log, when this backend has one. */
  public Optional<Path> auditLog() {
    return controlPlane.auditLogFile();
  }

  @Override
  public void close() {
    try {
      if (controllers != admin) {
        controllers.close();
      }
      admin.close();
    } finally {
      controlPlane.stop();
    }
  }
}
