package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A test's namespace on one cluster and what the harness put into it: the class's admission webhook
 * configurations and, with {@code rbac}, the ServiceAccount identity its controllers act as.
 * Leaving it removes them and deletes the namespace, unless a failed test's is to be kept.
 */
final class ScopeNamespace {

  private final SharedCluster cluster;
  // With @ControllerTest(clusters): the cluster's name; null for the one unnamed cluster.
  private final String clusterName;
  private final String name;
  private final KubernetesClient client;
  private AutoCloseable webhookConfigurations;
  private ServiceAccountIdentity identity;

  /** Namespace {@code name}, created already on {@code cluster}, as yet with nothing in it. */
  ScopeNamespace(SharedCluster cluster, String clusterName, String name) {
    this.cluster = cluster;
    this.clusterName = clusterName;
    this.name = name;
    // A view of the admin client: shares its connection pool, so it costs nothing per test.
    this.client = cluster.admin().adapt(NamespacedKubernetesClient.class).inNamespace(name);
  }

  /**
   * Installs the class's {@code webhooks}' configurations here and, with {@code rbac}, creates the
   * controllers' identity (its client's configuration routed by {@code route}). On failure, the
   * caller leaves the namespace (what was put here goes with it).
   */
  void furnish(
      Optional<ClassWebhooks> webhooks, Optional<RbacManifests> rbac, UnaryOperator<Config> route) {
    if (webhooks.isPresent()) {
      webhookConfigurations = webhooks.get().install(name);
    }
    if (rbac.isPresent()) {
      identity = ServiceAccountIdentity.create(cluster.admin(), name, rbac.get(), route);
    }
  }

  SharedCluster cluster() {
    return cluster;
  }

  String clusterName() {
    return clusterName;
  }

  String name() {
    return name;
  }

  /** The admin client namespaced here: what tests act with. */
  KubernetesClient client() {
    return client;
  }

  /**
   * The client the controllers here act with: their identity's, or the controllers' admin (through
   * the fault proxy when {@code throughFaultProxy}).
   */
  KubernetesClient controllerClient(boolean throughFaultProxy) {
    return identity != null
        ? identity.client()
        : cluster
            .controllerAdmin(throughFaultProxy)
            .adapt(NamespacedKubernetesClient.class)
            .inNamespace(name);
  }

  /**
   * Removes the webhook configurations and the identity, each failure added to {@code failures}.
   */
  void removeWhatWasPut(Failures failures) {
    for (AutoCloseable part : new AutoCloseable[] {webhookConfigurations, identity}) {
      try {
        if (part != null) {
          part.close();
        }
      } catch (Exception e) {
        failures.add(cleanupFailed(e));
      }
    }
  }

  /** The failure of cleaning up here, naming the namespace (and the cluster). */
  IllegalStateException cleanupFailed(Exception e) {
    return new IllegalStateException(
        "Cleaning up namespace "
            + name
            + (clusterName == null ? "" : " of cluster " + clusterName)
            + " failed",
        e);
  }

  /** Deletes the namespace, or keeps it when the test {@code failed} and {@code keepOnFailure}. */
  void leave(boolean failed, boolean keepOnFailure, Failures failures) {
    if (failed && keepOnFailure) {
      System.err.println(
          "[kube-harness] kept namespace "
              + name
              + (clusterName == null ? "" : " on cluster " + clusterName)
              + " of the failed test");
      return;
    }
    try {
      TestNamespaces.delete(cluster.admin(), name);
    } catch (RuntimeException e) {
      failures.add(e);
    }
  }
}
