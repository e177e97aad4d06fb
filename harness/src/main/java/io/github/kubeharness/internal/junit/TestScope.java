package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.internal.faults.ProxyFaults;
import io.github.kubeharness.internal.faults.TrafficTally;
import io.github.kubeharness.webhooks.Webhooks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
  // Outlives a restart of the controllers: the explorer counts across it.
  private final ReconcileActivity activity = new ReconcileActivity();
  private boolean failed;
  // With @ControllerTest(clusters): this scope's cluster name (null: the one unnamed cluster), what
  // runs here, and (on the first cluster's scope) the scopes of the test on the further clusters.
  private final String clusterName;
  private final ClusterLayout.Placement placement;
  private final Map<String, TestScope> others = new LinkedHashMap<>();

  private TestScope(
      SharedCluster cluster,
      ExtensionConfig config,
      Optional<ClassWebhooks> webhooks,
      String namespace,
      long seed,
      String clusterName,
      ClusterLayout.Placement placement) {
    this.cluster = cluster;
    this.config = config;
    this.webhooks = webhooks;
    this.namespace = namespace;
    this.seed = seed;
    this.clusterName = clusterName;
    this.placement = placement;
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
    TestScope scope =
        new TestScope(
            cluster,
            config,
            webhooks,
            namespace,
            seed != null ? seed : config.seed().orElseGet(() -> new SplittableRandom().nextLong()),
            config.clusters().first(),
            new ClusterLayout.Placement(config.reconcilers(), config.controllers()));
    return scope.prepared();
  }

  /**
   * The same test on further cluster {@code clusterName}: a namespace of the first cluster's
   * scope's name, its identity there; added to {@code first}, which closes it. Its controllers
   * start with the first's ({@link #startControllers()}).
   */
  static TestScope openBeside(
      TestScope first, SharedCluster cluster, String clusterName, String className) {
    String namespace = TestNamespaces.createNamed(cluster.admin(), className, first.namespace());
    TestScope scope =
        new TestScope(
            cluster,
            first.config,
            Optional.empty(),
            namespace,
            // One seed per test: the random choices on every cluster replay together.
            first.seed,
            clusterName,
            first.config.clusters().placement(clusterName));
    scope.prepared();
    first.others.put(clusterName, scope);
    return scope;
  }

  private TestScope prepared() {
    TestScope scope = this;
    try {
      if (webhooks.isPresent()) {
        scope.webhookConfigurations = webhooks.get().install(namespace);
      }
      if (config.rbac().isPresent() && !placement.all().isEmpty()) {
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

  /**
   * Starts the controllers under their identity, those of the further clusters first (a controller
   * on the first cluster typically writes to them); their informers have synced on return.
   */
  void startControllers() {
    ScopeClusters forControllers = clusters(true);
    for (TestScope other : others.values()) {
      other.controllers =
          RunningControllers.start(
              config,
              other.placement,
              other.controllerClient(),
              namespace,
              forControllers,
              other.clusterName,
              other.activity);
    }
    controllers =
        RunningControllers.start(
            config,
            placement,
            controllerClient(),
            namespace,
            forControllers,
            clusterName,
            activity);
  }

  /**
   * Stops the controllers (of every cluster) and starts new instances of the same classes, as an
   * operator's restart does: each starts from an empty cache and reconciles every object it finds.
   */
  void restartControllers() {
    Failures failures = new Failures();
    for (TestScope scope : withOthers()) {
      try {
        if (scope.controllers != null) {
          scope.controllers.close();
        }
      } catch (RuntimeException e) {
        failures.add(e);
      }
      scope.controllers = null;
      scope.activity.forgetPending();
    }
    failures.throwIfAny();
    startControllers();
  }

  private List<TestScope> withOthers() {
    List<TestScope> all = new ArrayList<>(others.values());
    all.add(this);
    return all;
  }

  /** What the JOSDK reconcilers of every cluster are doing, summed. */
  ReconcileActivity.Summary activity() {
    return ReconcileActivity.sum(withOthers().stream().map(s -> s.activity).toList());
  }

  /**
   * What the controllers did in the namespace through the fault proxy; empty on a backend without
   * it.
   */
  Optional<TrafficTally> traffic() {
    return faults() instanceof ProxyFaults proxied
        ? Optional.of(proxied.traffic())
        : Optional.empty();
  }

  /** The client the controllers here act with: their identity's, or the controllers' admin. */
  KubernetesClient controllerClient() {
    return identity != null
        ? identity.client()
        : cluster
            .controllerAdmin(config.usesFaults())
            .adapt(NamespacedKubernetesClient.class)
            .inNamespace(namespace);
  }

  /**
   * The test's clusters by name: the admin clients (a test's view), or the controllers' own ({@code
   * forControllers}).
   */
  ScopeClusters clusters(boolean forControllers) {
    Map<String, TestScope> all = new LinkedHashMap<>();
    all.put(clusterName, this);
    all.putAll(others);
    return new ScopeClusters(namespace, all, forControllers);
  }

  /**
   * The scope of the test on cluster {@code name} (this one's for null or its own name).
   *
   * @throws IllegalArgumentException naming the clusters there are
   */
  TestScope on(String name) {
    if (name == null || name.equals(clusterName)) {
      return this;
    }
    TestScope other = others.get(name);
    if (other == null) {
      throw new IllegalArgumentException(
          "There is no cluster '"
              + name
              + "' in this test: its clusters are "
              + (clusterName == null
                  ? "one unnamed cluster (declare them with @ControllerTest(clusters = ...))"
                  : config.clusters().names()
                      + " (@ControllerTest(clusters) on "
                      + config.testClass().getSimpleName()
                      + ")")
              + ".");
    }
    return other;
  }

  /** This scope's cluster name; null for the one unnamed cluster. */
  String clusterName() {
    return clusterName;
  }

  /** The test's scopes on the further clusters, by name. */
  Map<String, TestScope> others() {
    return others;
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
    return placement.all();
  }

  /**
   * Fatal errors the controllers (of every cluster) reported since the last call (none before they
   * started).
   */
  List<String> newControllerFailures() {
    List<String> all = new ArrayList<>();
    for (TestScope other : others.values()) {
      other.ownFailures(true).forEach(f -> all.add("cluster " + other.clusterName + ": " + f));
    }
    all.addAll(0, ownFailures(true));
    return all;
  }

  /** Every fatal error the controllers (of every cluster) reported. */
  List<String> controllerFailures() {
    List<String> all = new ArrayList<>(ownFailures(false));
    for (TestScope other : others.values()) {
      other.ownFailures(false).forEach(f -> all.add("cluster " + other.clusterName + ": " + f));
    }
    return all;
  }

  private List<String> ownFailures(boolean onlyNew) {
    if (controllers == null) {
      return List.of();
    }
    return onlyNew ? controllers.failures().takeNew() : controllers.failures().all();
  }

  /** Marks the scope (on every cluster) as failed: with keepNamespaceOnFailure it survives. */
  void markFailed() {
    failed = true;
    others.values().forEach(TestScope::markFailed);
  }

  @Override
  public void close() {
    Failures failures = new Failures();
    synchronized (this) {
      if (faults != null) {
        faults.clear();
        faults.forgetTraffic();
      }
    }
    for (AutoCloseable part : new AutoCloseable[] {controllers, webhookConfigurations, identity}) {
      try {
        if (part != null) {
          part.close();
        }
      } catch (Exception e) {
        failures.add(
            new IllegalStateException(
                "Cleaning up namespace "
                    + namespace
                    + (clusterName == null ? "" : " of cluster " + clusterName)
                    + " failed",
                e));
      }
    }
    for (TestScope other : others.values()) {
      try {
        other.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    others.clear();
    if (failed && config.keepNamespaceOnFailure()) {
      System.err.println(
          "[kube-harness] kept namespace "
              + namespace
              + (clusterName == null ? "" : " on cluster " + clusterName)
              + " of the failed test");
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
