package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Clusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * What one test (or one class, in per-class namespace mode) runs in: a {@link ClusterScope} per
 * cluster of the test — the first cluster's first, then the further clusters of {@code clusters} in
 * declaration order — each with its namespace, controllers and fault session. Stored in the method
 * or class store; closing stops the controllers and deletes the namespaces — unless the test failed
 * and the namespaces are to be kept.
 */
final class TestScope implements JUnitResource {

  private final ExtensionConfig config;
  private final List<ClusterScope> clusters = new ArrayList<>();
  // The test's hold on its first cluster, from before its namespace is made until after it goes.
  private final ClusterSharing.Ticket ticket;
  private boolean failed;
  // With namespaceMode = PER_CLASS: the test in the scope now (its unique id and display name).
  private String[] inTest;

  private TestScope(ExtensionConfig config, ClusterScope first, ClusterSharing.Ticket ticket) {
    this.config = config;
    this.ticket = ticket;
    clusters.add(first);
    first.faults().heldBy(ticket);
  }

  /**
   * Creates the namespace and the controllers' identity; {@link #startControllers()} starts them,
   * so that a failed start can still be reported from a scope that exists. {@code seed}: the seed
   * of the test's random choices, as its invocation decided it.
   */
  static TestScope open(
      SharedCluster cluster,
      ExtensionConfig config,
      Optional<ClassWebhooks> webhooks,
      String className,
      String methodName,
      long seed) {
    // Before the namespace: while another test has the API server down, this one waits.
    ClusterSharing.Ticket ticket = cluster.sharing().enter();
    try {
      String namespace = TestNamespaces.create(cluster.admin(), className, methodName);
      return new TestScope(
          config,
          ClusterScope.open(
              cluster,
              config.clusters().first(),
              namespace,
              config,
              webhooks,
              new ClusterLayout.Placement(config.reconcilers(), config.controllers()),
              seed),
          ticket);
    } catch (RuntimeException e) {
      ticket.close();
      throw e;
    }
  }

  /**
   * The same test on further cluster {@code clusterName}: a namespace of the first cluster's
   * scope's name, its identity there; added to {@code first}, which closes it. Its controllers
   * start with the first's ({@link #startControllers()}).
   */
  static void openBeside(
      TestScope first, SharedCluster cluster, String clusterName, String className) {
    String namespace = TestNamespaces.createNamed(cluster.admin(), className, first.namespace());
    first.clusters.add(
        ClusterScope.open(
            cluster,
            clusterName,
            namespace,
            first.config,
            Optional.empty(),
            first.config.clusters().placement(clusterName),
            // One seed per test: the random choices on every cluster replay together.
            first.first().faults().seed()));
  }

  /**
   * Starts the controllers under their identity, those of the further clusters first (a controller
   * on the first cluster typically writes to them); their informers have synced on return.
   */
  void startControllers() {
    ScopeClusters forControllers = clusters(true);
    for (ClusterScope other : others()) {
      startOn(other, forControllers);
    }
    startOn(first(), forControllers);
  }

  private void startOn(ClusterScope scope, ScopeClusters forControllers) {
    scope
        .controllers()
        .start(
            config,
            scope.namespace().controllerClient(config.usesFaults()),
            namespace(),
            forControllers,
            scope.name());
  }

  /**
   * Stops the controllers (of every cluster) and starts new instances of the same classes, as an
   * operator's restart does: each starts from an empty cache and reconciles every object it finds.
   */
  void restartControllers() {
    Failures failures = new Failures();
    for (ClusterScope scope : othersThenFirst()) {
      try {
        scope.controllers().stop();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    failures.throwIfAny();
    startControllers();
  }

  private List<ClusterScope> othersThenFirst() {
    List<ClusterScope> all = new ArrayList<>(others());
    all.add(first());
    return all;
  }

  /** What the JOSDK reconcilers of every cluster are doing, summed. */
  ReconcileActivity.Summary activity() {
    return ReconcileActivity.sum(
        othersThenFirst().stream().map(s -> s.controllers().activity()).toList());
  }

  /**
   * The test's clusters by name: the admin clients (a test's view), or the controllers' own ({@code
   * forControllers}).
   */
  ScopeClusters clusters(boolean forControllers) {
    return new ScopeClusters(namespace(), clusters, config.usesFaults(), forControllers);
  }

  /** The clusters a test sees from {@code on}: all of them from the first, else only that one. */
  Clusters clustersSeenFrom(ClusterScope on) {
    return on == first()
        ? clusters(false)
        : new ScopeClusters(namespace(), List.of(on), config.usesFaults(), false);
  }

  /**
   * The test on cluster {@code name} (the first for null or its own name).
   *
   * @throws IllegalArgumentException naming the clusters there are
   */
  ClusterScope on(String name) {
    if (name == null) {
      return first();
    }
    for (ClusterScope scope : clusters) {
      if (name.equals(scope.name())) {
        return scope;
      }
    }
    throw new IllegalArgumentException(
        "There is no cluster '"
            + name
            + "' in this test: its clusters are "
            + (first().name() == null
                ? "one unnamed cluster (declare them with @ControllerTest(clusters = ...))"
                : config.clusters().names()
                    + " (@ControllerTest(clusters) on "
                    + config.testClass().getSimpleName()
                    + ")")
            + ".");
  }

  /** The test on the first cluster (the one unnamed cluster without {@code clusters}). */
  ClusterScope first() {
    return clusters.get(0);
  }

  /** The test on the further clusters, in declaration order. */
  List<ClusterScope> others() {
    return clusters.subList(1, clusters.size());
  }

  /** Every cluster's scope, the first's first. */
  List<ClusterScope> all() {
    return clusters;
  }

  /** Closes the scope after {@code failure}, which carries any problem closing it. */
  void closeAfter(Throwable failure) {
    try {
      close();
    } catch (RuntimeException closing) {
      failure.addSuppressed(closing);
    }
  }

  /** The namespace's name, the same on every cluster. */
  public String namespace() {
    return first().namespace().name();
  }

  /** Admin client namespaced to the test namespace on the first cluster: what tests act with. */
  public KubernetesClient client() {
    return first().client();
  }

  ExtensionConfig config() {
    return config;
  }

  /**
   * Fatal errors the controllers (of every cluster) reported since the last call (none before they
   * started).
   */
  List<String> newControllerFailures() {
    return controllerFailures(true);
  }

  /** Every fatal error the controllers (of every cluster) reported. */
  List<String> controllerFailures() {
    return controllerFailures(false);
  }

  private List<String> controllerFailures(boolean onlyNew) {
    List<String> all = new ArrayList<>(first().controllers().failures(onlyNew));
    for (ClusterScope other : others()) {
      other
          .controllers()
          .failures(onlyNew)
          .forEach(f -> all.add("cluster " + other.name() + ": " + f));
    }
    return all;
  }

  /**
   * Marks the per-class scope as used by test {@code id} ({@code name}: its display name); refuses
   * a second test at the same time (methods run in parallel), which would share the namespace and
   * the controllers with the first.
   */
  synchronized void beginTest(String id, String name) {
    if (inTest != null) {
      throw new ExtensionConfigurationException(
          config.testClass().getName()
              + " runs "
              + inTest[1]
              + " and "
              + name
              + " at the same time, but with namespaceMode = PER_CLASS they share one namespace"
              + " and one set of controllers. Annotate the class with"
              + " @Execution(ExecutionMode.SAME_THREAD) so its tests run one after another, or use"
              + " namespaceMode = PER_TEST.");
    }
    inTest = new String[] {id, name};
  }

  /** Test {@code id} no longer uses the per-class scope. */
  synchronized void endTest(String id) {
    if (inTest != null && inTest[0].equals(id)) {
      inTest = null;
    }
  }

  /** Marks the test (on every cluster) as failed: with keepNamespaceOnFailure it survives. */
  void markFailed() {
    failed = true;
  }

  /**
   * Stops the first cluster's part, then each further cluster's with its namespace, then leaves the
   * first's namespace; the first failure is thrown with the rest suppressed.
   */
  @Override
  public void close() {
    try {
      Failures failures = new Failures();
      first().stop(failures);
      for (ClusterScope other : others()) {
        Failures closing = new Failures();
        other.stop(closing);
        other.namespace().leave(failed, config.keepNamespaceOnFailure(), closing);
        try {
          closing.throwIfAny();
        } catch (RuntimeException e) {
          failures.add(e);
        }
      }
      others().clear();
      first().namespace().leave(failed, config.keepNamespaceOnFailure(), failures);
      failures.throwIfAny();
    } finally {
      ticket.close();
    }
  }
}
