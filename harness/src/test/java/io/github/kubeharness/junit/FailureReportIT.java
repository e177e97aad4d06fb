package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.BackendSensitive;
import io.github.kubeharness.junit.scenarios.FailingWidgetScenario;
import io.github.kubeharness.junit.scenarios.MultiClusterScenarios;
import io.github.kubeharness.junit.scenarios.PassingWidgetScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A deliberately failing test run through the JUnit Platform launcher: its failure carries the
 * report summary, and the report holds the namespace's objects, events, controller log and API
 * requests.
 */
class FailureReportIT {

  @Test
  void aTestWithClustersLeavesAReportPerCluster() throws Exception {
    Throwable failure =
        ScenarioRunner.onlyFailure(ScenarioRunner.run(MultiClusterScenarios.FailingHubEdge.class));

    assertThat(failure.getMessage())
        .contains("never-written")
        .contains("cluster hub:")
        .contains("cluster edge-1:");
    Path report =
        Path.of(
            "target/kube-harness/reports",
            MultiClusterScenarios.FailingHubEdge.class.getName(),
            "expectsTheEdgeToHoldWhatItNeverGets");
    // The Widget lives on the hub, the ConfigMap the hub's controller wrote on the edge.
    assertThat(Files.readString(report.resolve("hub/objects.yaml")))
        .contains("kind: Widget", "name: fanned")
        .doesNotContain("widget-fanned");
    assertThat(Files.readString(report.resolve("edge-1/objects.yaml")))
        .contains("name: widget-fanned")
        .doesNotContain("kind: Widget");
  }

  @BackendSensitive
  @Test
  void failingTestLeavesAReadableReport() throws Exception {
    Throwable failure = ScenarioRunner.onlyFailure(ScenarioRunner.run(FailingWidgetScenario.class));

    assertThat(failure).isInstanceOf(AssertionError.class);
    assertThat(failure.getMessage())
        .contains("expected message") // the original assertion is still there
        .contains("kube-harness report: ")
        .contains("Widget broken");

    Path report =
        Path.of(
            "target/kube-harness/reports",
            FailingWidgetScenario.class.getName(),
            "expectsAMessageTheControllerNeverWrites");
    assertThat(report.resolve("objects.yaml")).exists();
    String objects = Files.readString(report.resolve("objects.yaml"));
    assertThat(objects)
        .contains("kind: Widget", "name: broken", "actual message")
        .doesNotContain("managedFields");
    assertThat(Files.readString(report.resolve("controller.log"))).contains("reconciling widget");
    // Who did what: the test body as the admin, the controllers under their own name, their
    // watches (still open when the report is written) included.
    List<String> requests = Files.readAllLines(report.resolve("api-requests.txt"));
    assertThat(requests)
        .anySatisfy(
            l -> assertThat(l).containsSubsequence("kube-harness-admin", "create", "widgets"))
        .anySatisfy(
            l ->
                assertThat(l)
                    .containsSubsequence("kube-harness-controller", "watch", "widgets", "open"))
        .anySatisfy(
            l ->
                assertThat(l)
                    .containsSubsequence("kube-harness-controller", "patch", "configmaps"));
    assertThat(report.resolve("events.txt")).exists();
    assertThat(Files.readString(report.resolve("summary.txt"))).contains("kube-harness report: ");
  }

  @Test
  void reportsOfEarlierRunsDoNotSurviveTheNextRunOfTheirClass() throws Exception {
    Path reports = Path.of("target/kube-harness/reports");
    Path passingNow =
        reports.resolve(PassingWidgetScenario.class.getName()).resolve("widgetIsReconciled");
    Path removedTest =
        reports.resolve(FailingWidgetScenario.class.getName()).resolve("aTestThatNoLongerExists");
    for (Path old : List.of(passingNow, removedTest)) {
      Files.createDirectories(old);
      Files.writeString(old.resolve("summary.txt"), "kube-harness report: from an earlier run");
    }

    ScenarioRunner.run(PassingWidgetScenario.class, FailingWidgetScenario.class);

    assertThat(passingNow).doesNotExist();
    assertThat(removedTest).doesNotExist();
    assertThat(
            reports
                .resolve(FailingWidgetScenario.class.getName())
                .resolve("expectsAMessageTheControllerNeverWrites")
                .resolve("summary.txt"))
        .exists();
  }
}
