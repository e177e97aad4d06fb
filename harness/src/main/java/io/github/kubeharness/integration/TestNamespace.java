package io.github.kubeharness.integration;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.internal.junit.TestNamespaces;
import io.github.kubeharness.internal.junit.TestReports;
import io.github.kubeharness.internal.report.FailureReport;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The namespace of one test method, named and labelled as {@code @ControllerTest}'s are ({@code
 * <class>-<method>-xxxxx}, its JVM in a label): made before it, reported if the test failed
 * (objects, events, API requests under {@code target/kube-harness/reports/<class>/<method>/}, the
 * files docs/controller-test.md describes, without {@code controller.log}: the framework owns the
 * controllers' logging) and deleted after it.
 *
 * @param name the namespace
 * @param testClass the test's class, naming its report directory
 * @param method the test method, naming its report directory
 * @param started when the test started: the report's API requests are those since then
 */
record TestNamespace(String name, Class<?> testClass, String method, Instant started) {

  /** Creates the namespace of {@code testClass.method} with {@code admin}. */
  static TestNamespace open(KubernetesClient admin, Class<?> testClass, String method) {
    String name = TestNamespaces.create(admin, testClass.getSimpleName(), method);
    return new TestNamespace(name, testClass, method, Instant.now());
  }

  /**
   * Reports the namespace when {@code failure} is not null, then deletes it; returns the report's
   * summary when one was written.
   */
  Optional<String> close(ControlPlane controlPlane, KubernetesClient admin, Throwable failure) {
    try {
      if (failure == null) {
        return Optional.empty();
      }
      return Optional.of(
          FailureReport.write(
                  TestReports.directory(testClass, method),
                  admin,
                  name,
                  started,
                  controlPlane.auditLogFile(),
                  List.of(),
                  TestReports.cluster(controlPlane))
              .summary());
    } finally {
      TestNamespaces.delete(admin, name);
    }
  }
}
