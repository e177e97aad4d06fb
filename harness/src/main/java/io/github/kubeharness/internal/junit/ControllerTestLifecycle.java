package io.github.kubeharness.internal.junit;

import io.github.kubeharness.internal.report.FailureReport;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.NamespaceMode;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;

/**
 * The behaviour of {@code @ControllerTest} per JUnit callback. State lives only in JUnit's stores:
 * the shared cluster in the root store (keyed by configuration, closed by JUnit at the very end),
 * the class's configuration and per-class scope in the class store, a per-test scope in the method
 * store.
 */
public final class ControllerTestLifecycle {

  private static final Namespace NAMESPACE = Namespace.create("io.github.kubeharness");
  private static final Path REPORTS = Path.of("target", "kube-harness", "reports");

  public void beforeAll(ExtensionContext context) {
    ExtensionConfig config = config(context);
    LogCapture.install();
    SharedCluster cluster = cluster(context, config);
    cluster.installCrds(config);
    if (config.namespaceMode() == NamespaceMode.PER_CLASS) {
      TestScope scope =
          TestScope.open(cluster, config, context.getRequiredTestClass().getSimpleName(), null);
      context.getStore(NAMESPACE).put(TestScope.class, scope);
    }
  }

  public void beforeEach(ExtensionContext context) {
    ExtensionConfig config = config(context);
    TestScope scope;
    if (config.namespaceMode() == NamespaceMode.PER_TEST) {
      scope =
          TestScope.open(
              cluster(context, config),
              config,
              context.getRequiredTestClass().getSimpleName(),
              context.getRequiredTestMethod().getName());
      context.getStore(NAMESPACE).put(TestScope.class, scope);
    } else {
      scope = scope(context).orElseThrow();
    }
    Injector injector =
        classStore(context).computeIfAbsent(Injector.class, k -> new Injector(), Injector.class);
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      injector.injectFields(instance, scope);
    }
  }

  /** Writes the failure report and returns the failure with the report's summary appended. */
  public Throwable reportFailure(ExtensionContext context, Throwable failure) {
    Optional<TestScope> found = scope(context);
    if (found.isEmpty()) {
      return failure;
    }
    TestScope scope = found.get();
    scope.markFailed();
    String summary;
    try {
      FailureReport report =
          FailureReport.write(
              REPORTS
                  .resolve(context.getRequiredTestClass().getName())
                  .resolve(context.getRequiredTestMethod().getName()),
              scope.cluster().admin(),
              scope.namespace(),
              scope.started(),
              scope.cluster().auditLog(),
              LogCapture.linesFor(scope.started(), scope.namespace(), scope.controllerClasses()));
      summary = report.summary();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
      return failure;
    }
    return withSummary(failure, summary);
  }

  public void afterEach(ExtensionContext context) {
    if (config(context).namespaceMode() != NamespaceMode.PER_TEST) {
      if (context.getExecutionException().isPresent()) {
        scope(context).ifPresent(TestScope::markFailed);
      }
      return;
    }
    TestScope scope = context.getStore(NAMESPACE).remove(TestScope.class, TestScope.class);
    if (scope != null) {
      if (context.getExecutionException().isPresent()) {
        scope.markFailed();
      }
      scope.close();
    }
  }

  public void afterAll(ExtensionContext context) {
    TestScope scope = context.getStore(NAMESPACE).remove(TestScope.class, TestScope.class);
    if (scope != null) {
      scope.close();
    }
  }

  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (Injector.supports(type, parameter.getParameter())) {
      return true;
    }
    return ExtensionConfig.class != type
        && AnnotationSupport.isAnnotated(context.getRequiredTestClass(), ControllerTest.class)
        && (config(context).reconcilers().contains(type)
            || config(context).controllers().contains(type));
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
    return Injector.resolve(type, parameter.getParameter(), scope)
        .orElseThrow(
            () ->
                new ParameterResolutionException(
                    "Cannot inject "
                        + type.getName()
                        + " into "
                        + parameter.getDeclaringExecutable()
                        + ": no such controller is running. Injectable: KubernetesClient,"
                        + " @TestNamespace String, ControlPlane, KubeAssertions, Operator and the"
                        + " classes listed in reconcilers/controllers."));
  }

  private static Optional<TestScope> scope(ExtensionContext context) {
    for (Optional<ExtensionContext> c = Optional.of(context);
        c.isPresent();
        c = c.get().getParent()) {
      TestScope scope = c.get().getStore(NAMESPACE).get(TestScope.class, TestScope.class);
      if (scope != null) {
        return Optional.of(scope);
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

  private static ExtensionConfig config(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    return classStore(context)
        .computeIfAbsent(
            ExtensionConfig.class,
            k ->
                ExtensionConfig.of(
                    AnnotationSupport.findAnnotation(testClass, ControllerTest.class)
                        .orElseThrow(
                            () ->
                                new ExtensionConfigurationException(
                                    testClass.getName()
                                        + " uses ControllerTestExtension without @ControllerTest;"
                                        + " annotate the class with @ControllerTest instead.")),
                    testClass),
            ExtensionConfig.class);
  }

  private static SharedCluster cluster(ExtensionContext context, ExtensionConfig config) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .computeIfAbsent(
            "cluster:" + config.clusterKey(),
            k -> SharedCluster.start(config),
            SharedCluster.class);
  }

  private static Throwable withSummary(Throwable failure, String summary) {
    String message = (failure.getMessage() == null ? "" : failure.getMessage()) + "\n\n" + summary;
    Throwable augmented;
    if (failure instanceof AssertionFailedError afe) {
      augmented =
          new AssertionFailedError(
              message,
              afe.isExpectedDefined() ? afe.getExpected().getValue() : null,
              afe.isActualDefined() ? afe.getActual().getValue() : null,
              afe.getCause());
    } else if (failure instanceof AssertionError) {
      augmented = new AssertionError(message, failure.getCause());
    } else {
      failure.addSuppressed(new KubeHarnessReport(summary));
      return failure;
    }
    augmented.setStackTrace(failure.getStackTrace());
    for (Throwable s : failure.getSuppressed()) {
      augmented.addSuppressed(s);
    }
    return augmented;
  }

  /** Carries the report summary on a failure that is not an assertion. */
  static final class KubeHarnessReport extends RuntimeException {
    KubeHarnessReport(String summary) {
      super(summary, null, false, false);
    }
  }
}
