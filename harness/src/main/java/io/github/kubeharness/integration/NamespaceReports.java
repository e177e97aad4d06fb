package io.github.kubeharness.integration;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.internal.junit.TestReports;
import io.github.kubeharness.internal.report.FailureReport;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The failure report of one namespace — its objects, events and API requests — for integrations
 * that run tests their own way (Spring's TestContext, Quarkus' test resources) rather than through
 * {@code @ControllerTest}, which writes it by itself.
 */
public final class NamespaceReports {

  private NamespaceReports() {}

  /**
   * Writes the report of {@code namespace} since {@code since} to {@code directory} (the files
   * docs/controller-test.md describes, without {@code controller.log}: the integration owns the
   * controllers' logging) and returns its summary.
   */
  public static String write(
      ControlPlane controlPlane, String namespace, Instant since, Path directory) {
    try (KubernetesClient admin = controlPlane.newClient()) {
      return FailureReport.write(
              directory,
              admin,
              namespace,
              since,
              controlPlane.auditLogFile(),
              List.of(),
              TestReports.cluster(controlPlane))
          .summary();
    }
  }
}
