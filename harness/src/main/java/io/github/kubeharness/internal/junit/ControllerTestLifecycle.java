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
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
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
 * <p>Every kind of test — plain, a matrix test's run per version, a race test's run per seed —
 * builds one {@link Invocation} (version, seed, report directory, what is checked after the body)
 * and {@link #prepare} passes it down; the method store keeps it for the teardown and the report. A
 * matrix or race test is a JUnit test template whose runs ({@link TemplateRun}) each build and
 * prepare their own; the class's callbacks do the rest alike.
 *
 * <p>It knows nothing of the public annotations: the extension hands it the reader of a class's
 * configuration and the markers of namespace injection and matrix tests.
 */
public final class ControllerTestLifecycle {

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
      ClassCluster on = classCluster(context, config, Invocation.forClass(config, testClass));
      on.perClassScope().ifPresent(scope -> Stores.sharePerClass(context, scope));
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
                new TemplateRun(
                    config.controlPlane().backend() == Backend.EXISTING
                        ? "[existing cluster]"
                        : "[k8s " + v.label() + "]",
                    run -> prepare(run, Invocation.onVersion(config(run), run, v))));
  }

  /** Whether {@code context}'s method is a race test (run once per seed by its invocations). */
  public boolean isRaceTest(ExtensionContext context) {
    return context
        .getTestMethod()
        .map(m -> AnnotationSupport.isAnnotated(m, raceMarker))
        .orElse(false);
  }

  /**
   * The runs of a race test, one per seed ({@link Invocation#raceSeeds}), each named after it.
   * After each run whose body passed, the explorer's invariants of {@code checks} are checked
   * ({@link RaceInvariants}).
   */
  public Stream<TestTemplateInvocationContext> raceInvocations(
      ExtensionContext context, int runs, RaceChecks checks) {
    ExtensionConfig config = config(context);
    return Invocation.raceSeeds(config, context.getRequiredTestMethod().getName(), runs)
        .map(
            seed ->
                new TemplateRun(
                    "[seed " + seed + "]",
                    run -> prepare(run, Invocation.withSeed(config(run), run, seed, checks))));
  }

  /** Prepares a plain test; a matrix or race test's run prepares its own ({@link TemplateRun}). */
  public void beforeEach(ExtensionContext context) {
    if (isMatrixTest(context) || isRaceTest(context)) {
      return;
    }
    prepare(context, Invocation.plain(config(context), context));
  }

  /** The test's namespace and controllers for {@code run}, on the cluster of its version. */
  private void prepare(ExtensionContext context, Invocation run) {
    ExtensionConfig config = config(context);
    Stores.of(context).put(Invocation.class, run);
    ClassCluster on = classCluster(context, config, run);
    TestScope scope;
    if (!config.namespacePerClass()) {
      scope = on.openScope(context.getRequiredTestMethod().getName(), run);
      Stores.of(context).put(TestScope.class, scope);
    } else {
      scope = on.perClassScope().orElseThrow();
      scope.beginTest(context.getUniqueId(), context.getDisplayName());
      Stores.sharePerClass(context, scope);
      if (!scope.controllerFailures().isEmpty()) {
        // The class's controllers died in an earlier test; this one cannot test them.
        throw new AssertionError(
            ControllerFailures.describe(scope.controllerFailures())
                + "\n(in an earlier test of this class: with namespaceMode = PER_CLASS the"
                + " controllers run once for the whole class)");
      }
    }
    Injector injector =
        Stores.computeIfAbsent(
            Stores.ofClass(context),
            Injector.class,
            k -> new Injector(namespaceMarker, clusterOf),
            Injector.class);
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      injector.injectFields(instance, scope);
    }
  }

  /** Writes the failure report and returns the failure with the report's summary appended. */
  public Throwable reportFailure(ExtensionContext context, Throwable failure) {
    Optional<TestScope> scope = Stores.scope(context);
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
            ? Stores.of(context).remove(TestScope.class, TestScope.class)
            : Stores.scope(context).orElse(null);
    if (scope == null) {
      return;
    }
    try {
      afterEach(context, scope, perTest);
    } finally {
      if (!perTest) {
        scope.endTest(context.getUniqueId());
      }
    }
  }

  private static void afterEach(ExtensionContext context, TestScope scope, boolean perTest) {
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
        stopped = afterBody(context, scope);
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

  /** What the run checks after its body (a race run's invariants) broke, reported; or null. */
  private static Throwable afterBody(ExtensionContext context, TestScope scope) {
    Invocation run = Stores.invocation(context);
    if (run == null) {
      return null;
    }
    return run.afterBody()
        .check(scope)
        .map(broken -> TestReports.report(scope, run.reportDirectory(), broken))
        .orElse(null);
  }

  /** Closes the class's scopes and webhooks on every version it ran on. */
  public void afterAll(ExtensionContext context) {
    ClassClusters clusters = Stores.of(context).remove(ClassClusters.class, ClassClusters.class);
    if (clusters != null) {
      clusters.close();
    }
  }

  /** The run's report directory ({@link Invocation#reportDirectory}). */
  private static Path reportDirectory(ExtensionContext context) {
    Invocation run = Stores.invocation(context);
    return run != null
        ? run.reportDirectory()
        : TestReports.directory(
            context.getRequiredTestClass(), context.getRequiredTestMethod().getName());
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
        Stores.scope(context)
            .orElseThrow(
                () ->
                    new ParameterResolutionException(
                        "Cannot inject "
                            + type.getSimpleName()
                            + " into "
                            + parameter.getDeclaringExecutable()
                            + ": there is no test namespace yet (in @BeforeAll it exists only with"
                            + " namespaceMode = PER_CLASS)."));
    ClusterScope on;
    try {
      on = scope.on(clusterOf.apply(parameter.getParameter()).orElse(null));
    } catch (IllegalArgumentException e) {
      throw new ParameterResolutionException(
          "Cannot inject " + parameter.getParameter() + ": " + e.getMessage(), e);
    }
    return Injector.resolve(type, parameter.getParameter(), namespaceMarker, scope, on)
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

  private ExtensionConfig config(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    return Stores.computeIfAbsent(
        Stores.ofClass(context),
        ExtensionConfig.class,
        k -> configOfClass.apply(testClass),
        ExtensionConfig.class);
  }

  /** The class on the cluster of {@code run}'s version, opened there the first time (by run). */
  private static ClassCluster classCluster(
      ExtensionContext context, ExtensionConfig config, Invocation run) {
    String kubernetesVersion = run.kubernetesVersion();
    ClassClusters clusters =
        Stores.computeIfAbsent(
            Stores.ofClass(context),
            ClassClusters.class,
            k -> new ClassClusters(),
            ClassClusters.class);
    return clusters.on(
        kubernetesVersion,
        () -> {
          ControlPlaneOptions options = config.controlPlane(kubernetesVersion);
          ExtensionContext.Store root = Stores.root(context);
          String key = "cluster:" + ControlPlaneKey.of(options);
          ClusterLayout layout = config.clusters();
          // The first cluster is the shared one of these options, as for a class without
          // clusters; each further one is shared by the classes that name it alike.
          ControlPlaneKey planned = ControlPlaneKey.of(options);
          SuitePlan.using(
              config.testClass(), planned, key, () -> root.remove(key, ClusterStart.class));
          ClusterStart first =
              Stores.computeIfAbsent(root, key, k -> ClusterStart.of(options), ClusterStart.class);
          if (layout.others().isEmpty()) {
            return ClassCluster.open(named(layout.first(), first::get), Map.of(), config, run);
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
                          : Stores.computeIfAbsent(
                                  root,
                                  besideKey(config, planned, root, key, name, layout.ownEtcd()),
                                  k ->
                                      ClusterStart.beside(
                                          options, first, name, layout.ownEtcd(), where),
                                  ClusterStart.class)
                              .get(),
                  "kube-harness-cluster-start");
          // What is left after the first: the further clusters, in declaration order.
          Map<String, SharedCluster> others = new LinkedHashMap<>(all);
          SharedCluster cluster = others.remove(layout.first());
          return ClassCluster.open(cluster, others, config, run);
        });
  }

  /**
   * The root store's key of further cluster {@code name} beside the cluster under {@code key}, let
   * go of with that cluster when the run's plan says no class still to run needs it ({@link
   * SuitePlan}).
   */
  private static String besideKey(
      ExtensionConfig config,
      ControlPlaneKey planned,
      ExtensionContext.Store root,
      String key,
      String name,
      boolean ownEtcd) {
    String beside = key + "|beside:" + name + (ownEtcd ? "|own" : "");
    SuitePlan.using(
        config.testClass(), planned, beside, () -> root.remove(beside, ClusterStart.class));
    return beside;
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
}
