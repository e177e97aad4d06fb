package io.github.kubeharness.internal.junit;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.InParallel;
import io.github.kubeharness.internal.shared.ControlPlaneKey;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The behaviour of {@code @ControllerTest} per JUnit callback. State lives only in JUnit's stores:
 * each shared cluster in the root store (keyed by configuration and version, closed by JUnit at the
 * very end), the class's configuration and its hold on each cluster ({@link ClassCluster}: CRDs,
 * webhooks, per-class scope) in the class store, a per-test scope in the method store.
 *
 * <p>A matrix test is a JUnit test template: one invocation per version, each of which prepares its
 * run on its own version ({@link MatrixInvocation}); the class's callbacks do the rest alike.
 *
 * <p>It knows nothing of the public annotations: the extension hands it the reader of a class's
 * configuration and the markers of namespace injection and matrix tests.
 */
public final class ControllerTestLifecycle {

  private static final Namespace NAMESPACE = Namespace.create("io.github.kubeharness");

  private final Function<Class<?>, ExtensionConfig> configOfClass;
  private final Class<? extends Annotation> namespaceMarker;
  private final Class<? extends Annotation> matrixMarker;
  private final Class<? extends Annotation> raceMarker;
  private final Function<AnnotatedElement, Optional<String>> clusterOf;

  /**
   * {@code clusterOf}: the cluster a field or parameter names ({@code @Cluster("edge-1")}), empty
   * for the default cluster.
   */
  public ControllerTestLifecycle(
      Function<Class<?>, ExtensionConfig> configOfClass,
      Class<? extends Annotation> namespaceMarker,
      Class<? extends Annotation> matrixMarker,
      Class<? extends Annotation> raceMarker,
      Function<AnnotatedElement, Optional<String>> clusterOf) {
    this.configOfClass = configOfClass;
    this.namespaceMarker = namespaceMarker;
    this.matrixMarker = matrixMarker;
    this.raceMarker = raceMarker;
    this.clusterOf = clusterOf;
  }

  /**
   * Starts the class's cluster, unless the class has a version matrix: then each version's cluster
   * starts with the first test that runs on it.
   */
  public void beforeAll(ExtensionContext context) {
    ExtensionConfig config = config(context);
    Class<?> testClass = context.getRequiredTestClass();
    TestReports.clearEarlierRuns(testClass);
    LogCapture.install();
    if (config.matrix().isEmpty()) {
      ClassCluster on =
          classCluster(
              context,
              config,
              config.controlPlane().kubernetesVersion(),
              TestReports.directory(testClass, "beforeAll"));
      on.perClassScope()
          .ifPresent(scope -> context.getStore(NAMESPACE).put(ScopeRef.class, new ScopeRef(scope)));
    }
  }

  /** Whether {@code context}'s method is a matrix test (run per version by its invocations). */
  public boolean isMatrixTest(ExtensionContext context) {
    return context
        .getTestMethod()
        .map(m -> AnnotationSupport.isAnnotated(m, matrixMarker))
        .orElse(false);
  }

  /**
   * The runs of a matrix test, one per version, each named after it: {@code [k8s 1.36.3]} under the
   * method (reports that name tests by display name show {@code createsADeployment() [k8s
   * 1.36.3]}).
   */
  public Stream<TestTemplateInvocationContext> matrixInvocations(ExtensionContext context) {
    ExtensionConfig config = config(context);
    return MatrixVersion.of(config).stream()
        .map(
            v ->
                new MatrixInvocation(
                    config.controlPlane().backend() == Backend.EXISTING
                        ? "[existing cluster]"
                        : "[k8s " + v.label() + "]",
                    v,
                    this::beforeEachOn));
  }

  /** Whether {@code context}'s method is a race test (run once per seed by its invocations). */
  public boolean isRaceTest(ExtensionContext context) {
    return context
        .getTestMethod()
        .map(m -> AnnotationSupport.isAnnotated(m, raceMarker))
        .orElse(false);
  }

  /**
   * The runs of a race test, seeds 1 to {@code runs}, each named after its seed; only the seed of
   * {@code kubeharness.seed} when it is set (a replay). After each run whose body passed, the
   * explorer's invariants but {@code skipped} are checked ({@link RaceInvariants}).
   */
  public Stream<TestTemplateInvocationContext> raceInvocations(
      ExtensionContext context, int runs, Set<RaceInvariant> skipped) {
    ExtensionConfig config = config(context);
    String method = context.getRequiredTestMethod().getName();
    if (config.matrixDeclared() || config.namespacePerClass()) {
      throw new ExtensionConfigurationException(
          "@ControllerTest on "
              + config.testClass().getName()
              + (config.matrixDeclared()
                  ? " declares kubernetesVersions"
                  : " has namespaceMode = PER_CLASS")
              + ", but "
              + method
              + " is a @RaceTest, whose runs each need a namespace and controllers of their own on"
              + " one version: move it to a class without "
              + (config.matrixDeclared() ? "kubernetesVersions." : "PER_CLASS."));
    }
    if (runs < 1) {
      throw new ExtensionConfigurationException(
          "@RaceTest(runs = " + runs + ") on " + method + ": give 1 or more runs.");
    }
    Stream<Long> seeds =
        config.seed().isPresent()
            ? Stream.of(config.seed().get())
            : LongStream.rangeClosed(1, runs).boxed();
    Set<RaceInvariant> off = Set.copyOf(skipped);
    return seeds.map(
        seed -> new SeedInvocation(seed, (run, s) -> beforeEachWithSeed(run, new SeedRun(s, off))));
  }

  private void beforeEachWithSeed(ExtensionContext context, SeedRun run) {
    long seed = run.seed();
    context.getStore(NAMESPACE).put(SeedRun.class, run);
    ExtensionConfig config = config(context);
    prepare(context, config, config.controlPlane().kubernetesVersion(), seed);
  }

  /**
   * Prepares a plain test; a matrix or race test's invocation prepares its own ({@link
   * #beforeEachOn}, {@link #beforeEachWithSeed}).
   */
  public void beforeEach(ExtensionContext context) {
    if (isMatrixTest(context) || isRaceTest(context)) {
      return;
    }
    ExtensionConfig config = config(context);
    if (config.matrixDeclared()) {
      throw new ExtensionConfigurationException(
          "@ControllerTest on "
              + config.testClass().getName()
              + " declares kubernetesVersions, so its tests run once per version: annotate "
              + context.getRequiredTestMethod().getName()
              + " with @MatrixTest instead of @Test. A @Test, @ParameterizedTest or"
              + " @RepeatedTest would run on one version only: keep those in a class without"
              + " kubernetesVersions.");
    }
    prepare(context, config, config.controlPlane().kubernetesVersion(), null);
  }

  private void beforeEachOn(ExtensionContext context, MatrixVersion version) {
    if (version.failure() != null) {
      throw new KubeHarnessException(
          "Kubernetes " + version.asked() + " cannot be had: " + version.failure().getMessage(),
          version.failure());
    }
    ExtensionConfig config = config(context);
    if (!config.matrix().isEmpty()) {
      context.getStore(NAMESPACE).put(MatrixRun.class, new MatrixRun(version.version()));
    }
    prepare(context, config, version.version(), null);
  }

  /**
   * The test's namespace and controllers on the cluster of {@code kubernetesVersion}; {@code seed}
   * the run's seed (null: the setting's, else a new one).
   */
  private void prepare(
      ExtensionContext context, ExtensionConfig config, String kubernetesVersion, Long seed) {
    ClassCluster on = classCluster(context, config, kubernetesVersion, reportDirectory(context));
    TestScope scope;
    if (!config.namespacePerClass()) {
      scope =
          on.openScope(context.getRequiredTestMethod().getName(), reportDirectory(context), seed);
      context.getStore(NAMESPACE).put(TestScope.class, scope);
    } else {
      scope = on.perClassScope().orElseThrow();
      context.getStore(NAMESPACE).put(ScopeRef.class, new ScopeRef(scope));
      if (!scope.controllerFailures().isEmpty()) {
        // The class's controllers died in an earlier test; this one cannot test them.
        throw new AssertionError(
            ControllerFailures.describe(scope.controllerFailures())
                + "\n(in an earlier test of this class: with namespaceMode = PER_CLASS the"
                + " controllers run once for the whole class)");
      }
    }
    Injector injector =
        computeIfAbsent(
            classStore(context),
            Injector.class,
            k -> new Injector(namespaceMarker, clusterOf),
            Injector.class);
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      injector.injectFields(instance, scope);
    }
  }

  /** Writes the failure report and returns the failure with the report's summary appended. */
  public Throwable reportFailure(ExtensionContext context, Throwable failure) {
    Optional<TestScope> scope = scope(context);
    if (scope.isEmpty()) {
      return failure;
    }
    scope.get().newControllerFailures(); // they are in this report: not news for afterEach
    return TestReports.report(scope.get(), reportDirectory(context), failure);
  }

  /**
   * Fails a test whose body passed but whose controllers stopped with a fatal error meanwhile (a
   * forbidden watch, ...), then stops the per-test controllers and deletes the namespace.
   */
  public void afterEach(ExtensionContext context) {
    boolean perTest = !config(context).namespacePerClass();
    TestScope scope =
        perTest
            ? context.getStore(NAMESPACE).remove(TestScope.class, TestScope.class)
            : scope(context).orElse(null);
    if (scope == null) {
      return;
    }
    Throwable stopped = null;
    if (context.getExecutionException().isPresent()) {
      scope.markFailed();
    } else {
      List<String> failures = scope.newControllerFailures();
      if (!failures.isEmpty()) {
        stopped =
            TestReports.report(
                scope,
                reportDirectory(context),
                new AssertionError(ControllerFailures.describe(failures)));
      } else {
        stopped = raceInvariants(context, scope);
      }
    }
    if (perTest) {
      if (stopped != null) {
        scope.closeAfter(stopped);
      } else {
        scope.close();
      }
    }
    if (stopped instanceof Error error) {
      throw error;
    }
  }

  /** A race run's broken invariants, reported; null for other tests and when none broke. */
  private static Throwable raceInvariants(ExtensionContext context, TestScope scope) {
    SeedRun run = context.getStore(NAMESPACE).get(SeedRun.class, SeedRun.class);
    if (run == null) {
      return null;
    }
    Optional<AssertionError> broken;
    try {
      broken = RaceInvariants.check(scope, run.skipped(), run.seed());
    } catch (RuntimeException e) {
      broken =
          Optional.of(
              new AssertionError(
                  "The race explorer could not check its invariants under seed "
                      + run.seed()
                      + ": "
                      + e.getMessage(),
                  e));
    }
    return broken.map(b -> TestReports.report(scope, reportDirectory(context), b)).orElse(null);
  }

  /** Closes the class's scopes and webhooks on every version it ran on. */
  public void afterAll(ExtensionContext context) {
    ClassClusters clusters =
        context.getStore(NAMESPACE).remove(ClassClusters.class, ClassClusters.class);
    if (clusters != null) {
      clusters.close();
    }
  }

  /**
   * {@code <method>}, {@code <method>-k8s-<version>} for a run of a named matrix, {@code
   * <method>-seed-<seed>} for a run of a race test.
   */
  private static Path reportDirectory(ExtensionContext context) {
    MatrixRun run = context.getStore(NAMESPACE).get(MatrixRun.class, MatrixRun.class);
    String method = context.getRequiredTestMethod().getName();
    SeedRun seedRun = context.getStore(NAMESPACE).get(SeedRun.class, SeedRun.class);
    if (seedRun != null) {
      return TestReports.directory(
          context.getRequiredTestClass(), method + "-seed-" + seedRun.seed());
    }
    return TestReports.directory(
        context.getRequiredTestClass(),
        run == null ? method : method + "-k8s-" + run.kubernetesVersion());
  }

  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (Injector.supports(type, parameter.getParameter(), namespaceMarker)) {
      return true;
    }
    ExtensionConfig config = config(context);
    return config.reconcilers().contains(type)
        || config.controllers().contains(type)
        || config.clusters().placements().values().stream().anyMatch(p -> p.all().contains(type));
  }

  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    TestScope scope =
        scope(context)
            .orElseThrow(
                () ->
                    new ParameterResolutionException(
                        "Cannot inject "
                            + type.getSimpleName()
                            + " into "
                            + parameter.getDeclaringExecutable()
                            + ": there is no test namespace yet (in @BeforeAll it exists only with"
                            + " namespaceMode = PER_CLASS)."));
    TestScope on;
    try {
      on = scope.on(clusterOf.apply(parameter.getParameter()).orElse(null));
    } catch (IllegalArgumentException e) {
      throw new ParameterResolutionException(
          "Cannot inject " + parameter.getParameter() + ": " + e.getMessage(), e);
    }
    return Injector.resolve(type, parameter.getParameter(), namespaceMarker, on)
        .orElseThrow(
            () ->
                new ParameterResolutionException(
                    "Cannot inject "
                        + type.getName()
                        + " into "
                        + parameter.getDeclaringExecutable()
                        + ": no such controller is running. Injectable: KubernetesClient,"
                        + " @TestNamespace String, ControlPlane, KubeAssertions, Simulation,"
                        + " Faults, Webhooks (with webhookHandlers), Operator, Clusters and the"
                        + " classes listed in reconcilers/controllers (of that cluster, with"
                        + " @Cluster)."));
  }

  /** The nearest scope: the test's own, else the per-class one it runs in. */
  private static Optional<TestScope> scope(ExtensionContext context) {
    for (Optional<ExtensionContext> c = Optional.of(context);
        c.isPresent();
        c = c.get().getParent()) {
      ExtensionContext.Store store = c.get().getStore(NAMESPACE);
      TestScope scope = store.get(TestScope.class, TestScope.class);
      if (scope != null) {
        return Optional.of(scope);
      }
      ScopeRef shared = store.get(ScopeRef.class, ScopeRef.class);
      if (shared != null) {
        return Optional.of(shared.scope());
      }
    }
    return Optional.empty();
  }

  private static ExtensionContext.Store classStore(ExtensionContext context) {
    ExtensionContext c = context;
    while (c.getTestMethod().isPresent() && c.getParent().isPresent()) {
      c = c.getParent().get();
    }
    return c.getStore(NAMESPACE);
  }

  private ExtensionConfig config(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    return computeIfAbsent(
        classStore(context),
        ExtensionConfig.class,
        k -> configOfClass.apply(testClass),
        ExtensionConfig.class);
  }

  /** The class on the cluster of {@code kubernetesVersion}, opened there the first time. */
  private static ClassCluster classCluster(
      ExtensionContext context,
      ExtensionConfig config,
      String kubernetesVersion,
      Path reportDirectory) {
    ClassClusters clusters =
        computeIfAbsent(
            classStore(context),
            ClassClusters.class,
            k -> new ClassClusters(),
            ClassClusters.class);
    return clusters.on(
        kubernetesVersion,
        () -> {
          ControlPlaneOptions options = config.controlPlane(kubernetesVersion);
          ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
          String key = "cluster:" + ControlPlaneKey.of(options);
          ClusterLayout layout = config.clusters();
          // The first cluster is the shared one of these options, as for a class without
          // clusters; each further one is shared by the classes that name it alike.
          ClusterStart first =
              computeIfAbsent(root, key, k -> ClusterStart.of(options), ClusterStart.class);
          if (layout.others().isEmpty()) {
            return ClassCluster.open(
                named(layout.first(), first::get), Map.of(), config, reportDirectory);
          }
          String where = "@ControllerTest on " + config.testClass().getName();
          // All at once: the further clusters' apiservers launch as soon as the first cluster's
          // etcd is launched and boot beside its apiserver (and controller manager in standard),
          // so that a class with three clusters waits about one boot, not three.
          List<String> names = new ArrayList<>();
          names.add(layout.first());
          names.addAll(layout.others());
          Map<String, SharedCluster> all =
              InParallel.map(
                  names,
                  name ->
                      name.equals(layout.first())
                          ? named(name, first::get)
                          : computeIfAbsent(
                                  root,
                                  key + "|beside:" + name + (layout.ownEtcd() ? "|own" : ""),
                                  k ->
                                      ClusterStart.beside(
                                          options, first, name, layout.ownEtcd(), where),
                                  ClusterStart.class)
                              .get(),
                  "kube-harness-cluster-start");
          // What is left after the first: the further clusters, in declaration order.
          Map<String, SharedCluster> others = new LinkedHashMap<>(all);
          SharedCluster cluster = others.remove(layout.first());
          return ClassCluster.open(cluster, others, config, reportDirectory);
        });
  }

  /** The first cluster's start; its failure names the cluster when the class names clusters. */
  private static SharedCluster named(String name, Supplier<SharedCluster> start) {
    try {
      return start.get();
    } catch (RuntimeException e) {
      if (name == null) {
        throw e;
      }
      throw new KubeHarnessException(
          "Cluster '" + name + "' (the first of clusters) failed to start: " + e.getMessage(), e);
    }
  }

  /** A per-class scope, seen from a test's store: closed by its class, not by the test. */
  private record ScopeRef(TestScope scope) {}

  /** A run of a named matrix, on this version: its report directory says so. */
  private record MatrixRun(String kubernetesVersion) {}

  /** A run of a race test: its seed, and the invariants the test turned off. */
  private record SeedRun(long seed, Set<RaceInvariant> skipped) {}

  /** The class on each cluster it ran on, by version; closed with the class. */
  private static final class ClassClusters implements JUnitResource {
    private final Map<String, ClassCluster> byVersion = new LinkedHashMap<>();

    synchronized ClassCluster on(String kubernetesVersion, Supplier<ClassCluster> open) {
      ClassCluster on = byVersion.get(kubernetesVersion);
      if (on == null) {
        on = open.get();
        byVersion.put(kubernetesVersion, on);
      }
      return on;
    }

    @Override
    public synchronized void close() {
      List<ClassCluster> all = new ArrayList<>(byVersion.values());
      byVersion.clear();
      Failures failures = new Failures();
      for (ClassCluster on : all) {
        try {
          on.close();
        } catch (RuntimeException e) {
          failures.add(e);
        }
      }
      failures.throwIfAny();
    }
  }

  /**
   * {@code Store.getOrComputeIfAbsent}: deprecated in JUnit 6 for {@code computeIfAbsent}, which
   * JUnit 5 lacks (a 5.x BOM in the user's build would make it a NoSuchMethodError). The old name
   * works on every supported version.
   */
  @SuppressWarnings("deprecation")
  private static <K, V> V computeIfAbsent(
      ExtensionContext.Store store, K key, Function<K, V> create, Class<V> type) {
    return store.getOrComputeIfAbsent(key, create, type);
  }
}
