package io.github.kubeharness.internal.junit;

import java.lang.annotation.Annotation;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;

/**
 * The behaviour of {@code @ControllerTest} per JUnit callback. State lives only in JUnit's stores:
 * the shared cluster in the root store (keyed by configuration, closed by JUnit at the very end),
 * the class's configuration and per-class scope in the class store, a per-test scope in the method
 * store.
 *
 * <p>It knows nothing of the public annotations: the extension hands it the reader of a class's
 * configuration and the marker of namespace injection.
 */
public final class ControllerTestLifecycle {

  private static final Namespace NAMESPACE = Namespace.create("io.github.kubeharness");

  private final Function<Class<?>, ExtensionConfig> configOfClass;
  private final Class<? extends Annotation> namespaceMarker;

  public ControllerTestLifecycle(
      Function<Class<?>, ExtensionConfig> configOfClass,
      Class<? extends Annotation> namespaceMarker) {
    this.configOfClass = configOfClass;
    this.namespaceMarker = namespaceMarker;
  }

  public void beforeAll(ExtensionContext context) {
    ExtensionConfig config = config(context);
    Class<?> testClass = context.getRequiredTestClass();
    TestReports.clearEarlierRuns(testClass);
    LogCapture.install();
    SharedCluster cluster = cluster(context, config);
    Optional<ClassWebhooks> webhooks = ClassWebhooks.open(cluster, config);
    webhooks.ifPresent(w -> context.getStore(NAMESPACE).put(ClassWebhooks.class, w));
    ClassWebhooks.installCrds(cluster, config, webhooks);
    if (config.namespacePerClass()) {
      TestScope scope =
          openScope(
              cluster,
              config,
              webhooks,
              testClass.getSimpleName(),
              null,
              TestReports.directory(testClass, "beforeAll"));
      context.getStore(NAMESPACE).put(TestScope.class, scope);
    }
  }

  public void beforeEach(ExtensionContext context) {
    ExtensionConfig config = config(context);
    TestScope scope;
    if (!config.namespacePerClass()) {
      scope =
          openScope(
              cluster(context, config),
              config,
              Optional.ofNullable(
                  classStore(context).get(ClassWebhooks.class, ClassWebhooks.class)),
              context.getRequiredTestClass().getSimpleName(),
              context.getRequiredTestMethod().getName(),
              reportDirectory(context));
      context.getStore(NAMESPACE).put(TestScope.class, scope);
    } else {
      scope = scope(context).orElseThrow();
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
            k -> new Injector(namespaceMarker),
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

  public void afterAll(ExtensionContext context) {
    TestScope scope = context.getStore(NAMESPACE).remove(TestScope.class, TestScope.class);
    if (scope != null) {
      scope.close();
    }
  }

  /**
   * Opens a scope and starts its controllers. When they fail to start, the report is written from
   * the scope (its namespace, the denied requests) before it closes, and the failure carries it.
   */
  private static TestScope openScope(
      SharedCluster cluster,
      ExtensionConfig config,
      Optional<ClassWebhooks> webhooks,
      String className,
      String methodName,
      Path reportDirectory) {
    TestScope scope = TestScope.open(cluster, config, webhooks, className, methodName);
    try {
      scope.startControllers();
      return scope;
    } catch (RuntimeException e) {
      Throwable reported = TestReports.report(scope, reportDirectory, e);
      scope.closeAfter(reported);
      throw e;
    }
  }

  private static Path reportDirectory(ExtensionContext context) {
    return TestReports.directory(
        context.getRequiredTestClass(), context.getRequiredTestMethod().getName());
  }

  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (Injector.supports(type, parameter.getParameter(), namespaceMarker)) {
      return true;
    }
    return config(context).reconcilers().contains(type)
        || config(context).controllers().contains(type);
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
    return Injector.resolve(type, parameter.getParameter(), namespaceMarker, scope)
        .orElseThrow(
            () ->
                new ParameterResolutionException(
                    "Cannot inject "
                        + type.getName()
                        + " into "
                        + parameter.getDeclaringExecutable()
                        + ": no such controller is running. Injectable: KubernetesClient,"
                        + " @TestNamespace String, ControlPlane, KubeAssertions, Simulation,"
                        + " Faults, Webhooks (with webhookHandlers), Operator and the classes"
                        + " listed in reconcilers/controllers."));
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

  private ExtensionConfig config(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    return computeIfAbsent(
        classStore(context),
        ExtensionConfig.class,
        k -> configOfClass.apply(testClass),
        ExtensionConfig.class);
  }

  private static SharedCluster cluster(ExtensionContext context, ExtensionConfig config) {
    return computeIfAbsent(
        context.getRoot().getStore(NAMESPACE),
        "cluster:" + config.clusterKey(),
        k -> SharedCluster.start(config),
        SharedCluster.class);
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
