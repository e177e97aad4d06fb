package io.github.kubeharness.internal.junit;

import java.util.Map;
import java.util.Optional;

/**
 * A test class on one shared cluster (one per version of its matrix): its CRDs installed there, its
 * webhook handlers served for it and, with {@code namespaceMode = PER_CLASS}, the one scope all its
 * tests on that cluster share. Kept in the class store, closed with the class.
 */
final class ClassCluster implements JUnitResource {

  private final SharedCluster cluster;
  private final ExtensionConfig config;
  private final Optional<ClassWebhooks> webhooks;
  // The further clusters of @ControllerTest(clusters), by name, in declaration order.
  private final Map<String, SharedCluster> others;
  private TestScope perClass;

  private ClassCluster(
      SharedCluster cluster,
      Map<String, SharedCluster> others,
      ExtensionConfig config,
      Optional<ClassWebhooks> webhooks) {
    this.cluster = cluster;
    this.others = others;
    this.config = config;
    this.webhooks = webhooks;
  }

  /**
   * Installs the class's CRDs on {@code cluster} and each of {@code others} and serves its webhooks
   * on {@code cluster}; opens the per-class scope when the class has one, as part of {@code run}
   * (the class's start, or the first test on this cluster).
   */
  static ClassCluster open(
      SharedCluster cluster,
      Map<String, SharedCluster> others,
      ExtensionConfig config,
      Invocation run) {
    Optional<ClassWebhooks> webhooks = ClassWebhooks.open(cluster, config);
    ClassCluster opened = new ClassCluster(cluster, others, config, webhooks);
    try {
      ClassWebhooks.installCrds(cluster, config, webhooks);
      for (SharedCluster other : others.values()) {
        // Conversion webhooks are served for the first cluster only (docs/multi-cluster.md).
        ClassWebhooks.installCrds(other, config, Optional.empty());
      }
      if (config.namespacePerClass()) {
        opened.perClass = opened.openScope(null, run);
      }
      return opened;
    } catch (RuntimeException e) {
      opened.close();
      throw e;
    }
  }

  SharedCluster cluster() {
    return cluster;
  }

  /** The scope all tests share with {@code namespaceMode = PER_CLASS}; empty otherwise. */
  Optional<TestScope> perClassScope() {
    return Optional.ofNullable(perClass);
  }

  /**
   * Opens a scope for one test ({@code methodName}; null for the class) and starts its controllers,
   * with the seed of {@code run}. When they fail to start, the report is written from the scope
   * (its namespace, the denied requests) to the run's directory before it closes, and the failure
   * carries it.
   */
  TestScope openScope(String methodName, Invocation run) {
    TestScope scope =
        TestScope.open(
            cluster, config, webhooks, config.testClass().getSimpleName(), methodName, run.seed());
    try {
      for (Map.Entry<String, SharedCluster> other : others.entrySet()) {
        TestScope.openBeside(
            scope, other.getValue(), other.getKey(), config.testClass().getSimpleName());
      }
      scope.startControllers();
      return scope;
    } catch (RuntimeException e) {
      Throwable reported = TestReports.report(scope, run.reportDirectory(), e);
      scope.closeAfter(reported);
      throw e;
    }
  }

  @Override
  public void close() {
    try {
      if (perClass != null) {
        perClass.close();
      }
    } finally {
      webhooks.ifPresent(ClassWebhooks::close);
    }
  }
}
