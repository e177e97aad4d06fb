package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.internal.faults.ProxyFaults;
import io.github.kubeharness.webhooks.Webhooks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/**
 * What one test (or one class, in per-class namespace mode) runs in: its namespace, a client
 * namespaced to it, the controllers and, with {@code rbac}, the ServiceAccount they act as. Stored
 * in the method or class store; closing stops the controllers and deletes the namespace — unless
 * the test failed and the namespace is to be kept.
 */
final class TestScope implements JUnitResource {

  private final SharedCluster cluster;
  private final ExtensionConfig config;
  private final String namespace;
  private final KubernetesClient client;
  private final Instant started = Instant.now();
  private final long seed;
  private final Optional<ClassWebhooks> webhooks;
  private AutoCloseable webhookConfigurations;
  private ServiceAccountIdentity identity;
  private ProxyFaults faults;
  private Faults unsupportedFaults;
  private RunningControllers controllers;
  private boolean failed;

  private TestScope(
      SharedCluster cluster,
      ExtensionConfig config,
      Optional<ClassWebhooks> webhooks,
      String namespace,
      Long seed) {
    this.cluster = cluster;
    this.config = config;
    this.webhooks = webhooks;
    this.namespace = namespace;
    this.seed =
        seed != null ? seed : config.seed().orElseGet(() -> new SplittableRandom().nextLong());
    // A view of the admin client: shares its connection pool, so it costs nothing per test.
    this.client = cluster.admin().adapt(NamespacedKubernetesClient.class).inNamespace(namespace);
  }

  /**
   * Creates the namespace and the controllers' identity; {@link #startControllers()} starts them,
   * so that a failed start can still be reported from a scope that exists.
   */
  static TestScope open(
      SharedCluster cluster,
      ExtensionConfig config,
      Optional<ClassWebhooks> webhooks,
      String className,
      String methodName,
      Long seed) {
    String namespace = TestNamespaces.create(cluster.admin(), className, methodName);
    TestScope scope = new TestScope(cluster, config, webhooks, namespace, seed);
    try {
      if (webhooks.isPresent()) {
        scope.webhookConfigurations = webhooks.get().install(namespace);
      }
      if (config.rbac().isPresent()) {
        scope.identity =
            ServiceAccountIdentity.create(
                cluster.admin(),
                namespace,
                config.rbac().get(),
                config.usesFaults() ? cluster::routeControllers : UnaryOperator.identity());
      }
      return scope;
    } catch (RuntimeException e) {
      scope.closeAfter(e);
      throw e;
    }
  }

  /** Starts the controllers under their identity; their informers have synced on return. */
  void startControllers() {
    KubernetesClient controllerClient =
        identity != null
            ? identity.client()
            : cluster
                .controllerAdmin(config.usesFaults())
                .adapt(NamespacedKubernetesClient.class)
                .inNamespace(namespace);
    controllers = RunningControllers.start(config, controllerClient, namespace);
  }

  /** Closes the scope after {@code failure}, which carries any problem closing it. */
  void closeAfter(Throwable failure) {
    try {
      close();
    } catch (RuntimeException closing) {
      failure.addSuppressed(closing);
    }
  }

  public String namespace() {
    return namespace;
  }

  /** Admin client namespaced to the test namespace: what tests act with. */
  public KubernetesClient client() {
    return client;
  }

  ExtensionConfig config() {
    return config;
  }

  SharedCluster cluster() {
    return cluster;
  }

  /**
   * The faults of this scope's namespace; its rules end with the scope.
   *
   * @throws UnsupportedOperationException on a backend without the fault proxy, saying why
   */
  synchronized Faults faults() {
    if (faults != null) {
      return faults;
    }
    if (cluster.faults().isEmpty()) {
      if (unsupportedFaults == null) {
        unsupportedFaults = cluster.controlPlane().faults();
      }
      return unsupportedFaults;
    }
    faults = cluster.faults().get().scoped(namespace, started, seed);
    return faults;
  }

  /** The seed of this test's random choices, when it asked for {@link Faults}. */
  synchronized Optional<Long> seedInUse() {
    return faults == null ? Optional.empty() : Optional.of(seed);
  }

  /** What the fault proxy logged since the scope opened; empty without faults. */
  List<String> faultLog() {
    return cluster.faults().map(f -> f.logSince(started)).orElse(List.of());
  }

  /** The class's webhooks as this test sees them (calls since it started). */
  Optional<Webhooks> webhooks() {
    return webhooks.map(w -> w.since(started));
  }

  Instant started() {
    return started;
  }

  Optional<Object> controller(Class<?> type) {
    return controllers == null ? Optional.empty() : controllers.instance(type);
  }

  Optional<Object> operator() {
    return controllers == null ? Optional.empty() : controllers.operator();
  }

  List<Class<?>> controllerClasses() {
    List<Class<?>> classes = new ArrayList<>(config.reconcilers());
    classes.addAll(config.controllers());
    return classes;
  }

  /** Fatal errors the controllers reported since the last call (none before they started). */
  List<String> newControllerFailures() {
    return controllers == null ? List.of() : controllers.failures().takeNew();
  }

  /** Every fatal error the controllers reported. */
  List<String> controllerFailures() {
    return controllers == null ? List.of() : controllers.failures().all();
  }

  /** Marks the scope as failed: with keepNamespaceOnFailure its namespace survives close. */
  void markFailed() {
    failed = true;
  }

  @Override
  public void close() {
    Failures failures = new Failures();
    synchronized (this) {
      if (faults != null) {
        faults.clear();
      }
    }
    for (AutoCloseable part : new AutoCloseable[] {controllers, webhookConfigurations, identity}) {
      try {
        if (part != null) {
          part.close();
        }
      } catch (Exception e) {
        failures.add(
            new IllegalStateException("Cleaning up namespace " + namespace + " failed", e));
      }
    }
    if (failed && config.keepNamespaceOnFailure()) {
      System.err.println("[kube-harness] kept namespace " + namespace + " of the failed test");
    } else {
      try {
        TestNamespaces.delete(cluster.admin(), namespace);
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    failures.throwIfAny();
  }
}
