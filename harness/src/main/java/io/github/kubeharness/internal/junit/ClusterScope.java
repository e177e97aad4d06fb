package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.webhooks.Webhooks;
import java.time.Instant;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A test on one cluster, by concern: its namespace ({@link ScopeNamespace}), its controllers
 * ({@link ScopeControllers}), its fault session ({@link FaultSession}) and the class's webhooks as
 * it sees them. A {@link TestScope} holds one per cluster of the test.
 */
final class ClusterScope {

  private final ScopeNamespace namespace;
  private final Instant started;
  private final Optional<ClassWebhooks> webhooks;
  private final ScopeControllers controllers;
  private final FaultSession faults;

  private ClusterScope(
      ScopeNamespace namespace,
      Optional<ClassWebhooks> webhooks,
      ClusterLayout.Placement placement,
      long seed) {
    this.namespace = namespace;
    this.started = Instant.now();
    this.webhooks = webhooks;
    this.controllers = new ScopeControllers(placement);
    this.faults = new FaultSession(namespace.cluster(), namespace.name(), started, seed);
  }

  /**
   * The test on {@code cluster} (named {@code clusterName}; null for the one unnamed cluster) in
   * namespace {@code name}, created already: the class's webhook configurations installed there
   * and, with {@code rbac} and controllers to run ({@code placement}), their identity created. On
   * failure the namespace is left and the failure rethrown.
   */
  static ClusterScope open(
      SharedCluster cluster,
      String clusterName,
      String name,
      ExtensionConfig config,
      Optional<ClassWebhooks> webhooks,
      ClusterLayout.Placement placement,
      long seed) {
    ClusterScope scope =
        new ClusterScope(new ScopeNamespace(cluster, clusterName, name), webhooks, placement, seed);
    Optional<RbacManifests> rbac = placement.all().isEmpty() ? Optional.empty() : config.rbac();
    try {
      scope.namespace.furnish(
          webhooks,
          rbac,
          rbac.isPresent() && config.usesFaults()
              ? cluster::routeControllers
              : UnaryOperator.identity());
      return scope;
    } catch (RuntimeException e) {
      Failures failures = new Failures();
      scope.stop(failures);
      scope.namespace.leave(false, false, failures);
      try {
        failures.throwIfAny();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  ScopeNamespace namespace() {
    return namespace;
  }

  SharedCluster cluster() {
    return namespace.cluster();
  }

  /** The cluster's name; null for the one unnamed cluster. */
  String name() {
    return namespace.clusterName();
  }

  /** The admin client namespaced to the test's namespace: what tests act with. */
  KubernetesClient client() {
    return namespace.client();
  }

  Instant started() {
    return started;
  }

  ScopeControllers controllers() {
    return controllers;
  }

  FaultSession faults() {
    return faults;
  }

  /** The class's webhooks as this test sees them (calls since it started). */
  Optional<Webhooks> webhooks() {
    return webhooks.map(w -> w.since(started));
  }

  /**
   * Ends the test here but for its namespace: the fault session, the controllers, what the harness
   * put into the namespace; each failure added to {@code failures}.
   */
  void stop(Failures failures) {
    faults.end();
    try {
      controllers.close();
    } catch (RuntimeException e) {
      failures.add(namespace.cleanupFailed(e));
    }
    namespace.removeWhatWasPut(failures);
  }
}
