package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.internal.backend.HarnessControlPlane;
import io.github.kubeharness.internal.client.Clients;
import io.github.kubeharness.internal.faults.ProxyFaults;
import io.github.kubeharness.internal.shared.RunningControlPlanes;
import io.github.kubeharness.internal.webhooks.WebhookServer;
import io.github.kubeharness.internal.webhooks.WebhookSet;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What the JUnit extension keeps beside one control plane of the JVM's registry ({@link
 * RunningControlPlanes}), shared by every test class on it: the admin client, the controllers'
 * clients and the webhook server. Closed when the last JUnit run on it lets go (a Spring context or
 * Quarkus test of the JVM may keep the control plane running after that).
 */
final class SharedCluster implements JUnitResource {

  /** The user the controllers act as when they do not run under {@code rbac}. */
  static final String CONTROLLER_USER = "kube-harness-controller";

  private final HarnessControlPlane controlPlane;
  private final Optional<ProxyFaults> faults;
  private final KubernetesClient admin;
  private final KubernetesClient controllers;
  private final ClusterSharing sharing = new ClusterSharing();
  private KubernetesClient proxiedControllers;
  private WebhookServer webhookServer;

  private SharedCluster(HarnessControlPlane controlPlane) {
    this.controlPlane = controlPlane;
    this.faults = controlPlane.proxyFaults();
    this.admin = controlPlane.newClient();
    this.controllers = controllerClient(controlPlane, admin);
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
    return Clients.create(
        controlPlane.addUser(CONTROLLER_USER, List.of("system:masters")).config());
  }

  /**
   * The controllers' client configuration: through the fault proxy where there is one, so that a
   * test's {@link io.github.kubeharness.faults.Faults} reach them.
   */
  Config routeControllers(Config config) {
    return faults.map(f -> f.route(config)).orElse(config);
  }

  /** The control plane's faults, when its backend has the fault proxy. */
  Optional<ProxyFaults> faults() {
    return faults;
  }

  /**
   * The clients and webhook server on {@code controlPlane}, started already (the JVM's control
   * plane of these options, {@link RunningControlPlanes}); on a kept one ({@code reuse}) the test
   * namespaces and webhook configurations that dead JVMs left go first.
   */
  static SharedCluster on(HarnessControlPlane controlPlane, boolean reuse) {
    SharedCluster cluster = new SharedCluster(controlPlane);
    if (reuse) {
      try {
        TestNamespaces.sweepOrphans(cluster.admin);
        WebhookSet.sweepOrphans(cluster.admin);
      } catch (RuntimeException e) {
        cluster.close();
        throw e;
      }
    }
    // Asked now, while the API server answers: the failure reports name the version, and one
    // written while a test has the API server down must not wait for it. Only the reports need
    // it, so a cluster that will not say (an existing one's restricted user) still starts; a
    // report then asks again and says why the version is unknown.
    try {
      controlPlane.kubernetesVersion();
    } catch (RuntimeException e) {
      // Asked again by the report.
    }
    return cluster;
  }

  /** The tests on this cluster now, and a test's turn to have it alone. */
  ClusterSharing sharing() {
    return sharing;
  }

  public HarnessControlPlane controlPlane() {
    return controlPlane;
  }

  public KubernetesClient admin() {
    return admin;
  }

  /**
   * Cluster-admin rights under the controllers' own name (the admin client where none exists);
   * through the fault proxy when {@code throughFaultProxy} and there is one.
   */
  synchronized KubernetesClient controllerAdmin(boolean throughFaultProxy) {
    if (!throughFaultProxy || faults.isEmpty() || controllers == admin) {
      return controllers;
    }
    if (proxiedControllers == null) {
      proxiedControllers = Clients.create(routeControllers(controllers.getConfiguration()));
    }
    return proxiedControllers;
  }

  /**
   * The server of every webhook the classes on this cluster serve, started by the first that asks:
   * it lives as long as the cluster, since conversion webhooks are cluster-wide. Before it, the
   * configurations that dead JVMs left on a cluster that outlives them (existing) go.
   */
  synchronized WebhookServer webhookServer(String where) {
    if (webhookServer == null) {
      WebhookSet.sweepOrphans(admin);
      webhookServer = WebhookServer.on(controlPlane, where);
    }
    return webhookServer;
  }

  /** The apiserver's audit log, when this backend has one. */
  public Optional<Path> auditLog() {
    return controlPlane.auditLogFile();
  }

  /** Closes the clients and the webhook server; the registry stops the control plane. */
  @Override
  public void close() {
    synchronized (this) {
      if (webhookServer != null) {
        webhookServer.close();
      }
    }
    if (proxiedControllers != null) {
      proxiedControllers.close();
    }
    if (controllers != admin) {
      controllers.close();
    }
    admin.close();
  }
}
