package io.github.kubeharness.junit;

import io.github.kubeharness.ClusterEtcd;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.junit.ClusterLayout;
import io.github.kubeharness.internal.junit.ControllerTestLifecycle;
import io.github.kubeharness.internal.junit.ExtensionConfig;
import io.github.kubeharness.internal.junit.FailurePause;
import io.github.kubeharness.internal.junit.RaceChecks;
import io.github.kubeharness.internal.junit.RbacManifests;
import io.github.kubeharness.settings.AnnotationSettings;
import io.github.kubeharness.settings.HarnessSettings;
import io.github.kubeharness.settings.SettingsResolver;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;

/**
 * The JUnit Jupiter extension behind {@link ControllerTest}: it reads the annotation (the one place
 * its attributes are read) and maps JUnit's callbacks onto the harness's lifecycle.
 */
public final class ControllerTestExtension
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver,
        TestExecutionExceptionHandler,
        TestTemplateInvocationContextProvider {

  private final ControllerTestLifecycle lifecycle =
      new ControllerTestLifecycle(
          ControllerTestExtension::read,
          TestNamespace.class,
          MatrixTest.class,
          RaceTest.class,
          element -> Optional.ofNullable(element.getAnnotation(Cluster.class)).map(Cluster::value));

  @Override
  public void beforeAll(ExtensionContext context) {
    lifecycle.beforeAll(context);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    lifecycle.beforeEach(context);
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    throw lifecycle.reportFailure(context, failure);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    lifecycle.afterEach(context);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    lifecycle.afterAll(context);
  }

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return lifecycle.isMatrixTest(context) || lifecycle.isRaceTest(context);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(
      ExtensionContext context) {
    if (lifecycle.isRaceTest(context)) {
      Optional<RaceTest> race =
          AnnotationSupport.findAnnotation(context.getRequiredTestMethod(), RaceTest.class);
      int runs = race.map(RaceTest::runs).orElse(1);
      Set<RaceTest.Invariant> skipped = EnumSet.noneOf(RaceTest.Invariant.class);
      race.ifPresent(r -> skipped.addAll(List.of(r.skip())));
      return lifecycle.raceInvocations(context, runs, checks(skipped));
    }
    return lifecycle.matrixInvocations(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return lifecycle.supportsParameter(parameter, context);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return lifecycle.resolveParameter(parameter, context);
  }

  /** The explorer's invariants a race test checks: all but those it turned off. */
  static RaceChecks checks(Set<RaceTest.Invariant> skipped) {
    return new RaceChecks(
        !skipped.contains(RaceTest.Invariant.CONVERGES),
        !skipped.contains(RaceTest.Invariant.RECONCILE_AGAIN_WRITES_NOTHING),
        !skipped.contains(RaceTest.Invariant.NO_ORPHANS),
        !skipped.contains(RaceTest.Invariant.NO_DUPLICATE_CHILDREN));
  }

  /** Reads a class's {@link ControllerTest}, resolved against the settings, once per class. */
  static ExtensionConfig read(Class<?> testClass) {
    ControllerTest annotation =
        AnnotationSupport.findAnnotation(testClass, ControllerTest.class)
            .orElseThrow(
                () ->
                    new ExtensionConfigurationException(
                        testClass.getName()
                            + " uses ControllerTestExtension without @ControllerTest; annotate"
                            + " the class with @ControllerTest instead."));
    String where = "@ControllerTest on " + testClass.getName();
    try {
      ControlPlaneOptions.Builder options =
          AnnotationSettings.apply(
              ControlPlaneOptions.builder().withOrigin(where),
              annotation.backend(),
              annotation.profile(),
              annotation.kubernetesVersion(),
              where);
      // The audit log feeds the "API requests" part of failure reports.
      options.withAuditLog(true);
      boolean raceTests = hasRaceTests(testClass);
      if (ExtensionConfig.asksForFaults(testClass) || raceTests) {
        // Faults restart the apiserver and route traffic: not on one kept for other JVMs.
        options.withReuse(false);
      }
      ClusterLayout clusters = clusters(testClass, annotation, where);
      if (clusters.names().size() > 1) {
        // The further clusters' apiservers use the first one's etcd, which a kept control plane's
        // keeper owns: a class with clusters gets control planes of this JVM's own.
        options.withReuse(false);
      }
      List<String> declared = versions(List.of(annotation.kubernetesVersions()));
      List<String> matrix =
          HarnessSettings.KUBERNETES_VERSIONS
              .read()
              .map(value -> versions(List.of(value.split(","))))
              .orElse(declared);
      return new ExtensionConfig(
          testClass,
          SettingsResolver.resolve(options.build()),
          !annotation.kubernetesVersion().isBlank(),
          matrix,
          !declared.isEmpty(),
          List.of(annotation.crds()),
          List.of(annotation.crdClasses()),
          List.of(annotation.reconcilers()),
          List.of(annotation.controllers()),
          (controller, client, namespace) ->
              ((ControllerFactory) controller).start(client, namespace),
          annotation.namespaceMode() == NamespaceMode.PER_CLASS,
          annotation.keepNamespaceOnFailure(),
          // CI is a fact of the platform, read here with the settings: no pause where nobody looks.
          FailurePause.of(
              HarnessSettings.PAUSE_ON_FAILURE.resolve(),
              HarnessSettings.PAUSE_ON_FAILURE_MINUTES.resolve(),
              System.getenv("CI")),
          rbac(annotation, where),
          List.of(annotation.webhooks()),
          List.of(annotation.webhookHandlers()),
          HarnessSettings.SEED.read(),
          raceTests,
          clusters);
    } catch (KubeHarnessException e) {
      throw new ExtensionConfigurationException(e.getMessage(), e);
    }
  }

  private static boolean hasRaceTests(Class<?> testClass) {
    return !AnnotationSupport.findAnnotatedMethods(
            testClass, RaceTest.class, HierarchyTraversalMode.TOP_DOWN)
        .isEmpty();
  }

  /** The class's clusters and the controllers {@link ClusterControllers} places on them. */
  private static ClusterLayout clusters(
      Class<?> testClass, ControllerTest annotation, String where) {
    Map<String, ClusterLayout.Placement> placements = new LinkedHashMap<>();
    for (ClusterControllers placed :
        AnnotationSupport.findRepeatableAnnotations(testClass, ClusterControllers.class)) {
      ClusterLayout.Placement earlier = placements.get(placed.cluster());
      List<Class<?>> reconcilers = new ArrayList<>(List.of(placed.reconcilers()));
      List<Class<?>> controllers = new ArrayList<>(List.of(placed.controllers()));
      if (earlier != null) {
        reconcilers.addAll(0, earlier.reconcilers());
        controllers.addAll(0, earlier.controllers());
      }
      placements.put(placed.cluster(), new ClusterLayout.Placement(reconcilers, controllers));
    }
    return ClusterLayout.of(
        List.of(annotation.clusters()),
        placements,
        HarnessSettings.CLUSTERS_ETCD.resolve() == ClusterEtcd.OWN,
        where);
  }

  private static List<String> versions(List<String> asked) {
    return asked.stream().map(String::trim).filter(v -> !v.isEmpty()).distinct().toList();
  }

  private static Optional<RbacManifests> rbac(ControllerTest annotation, String where) {
    if (annotation.rbac().length == 0) {
      return Optional.empty();
    }
    if (annotation.reconcilers().length == 0 && annotation.controllers().length == 0) {
      throw new ExtensionConfigurationException(
          where
              + " sets rbac but no reconcilers or controllers to run under it. Add reconcilers ="
              + " or controllers =, or remove rbac.");
    }
    String serviceAccount = annotation.serviceAccount();
    if (!serviceAccount.isBlank() && !serviceAccount.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")) {
      throw new ExtensionConfigurationException(
          where + " serviceAccount '" + serviceAccount + "' is not a valid Kubernetes name.");
    }
    return Optional.of(RbacManifests.read(List.of(annotation.rbac()), serviceAccount, where));
  }
}
