package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.junit.scenarios.FailingWidgetScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A deliberately failing test run through the JUnit Platform launcher: its failure carries the
 * report summary, and the report holds the namespace's objects, events, controller log and API
 * requests.
 */
class FailureReportIT {

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
    assertThat(Files.readString(report.resolve("api-requests.txt")))
        .contains("widgets", "configmaps");
    assertThat(report.resolve("events.txt")).exists();
    assertThat(Files.readString(report.resolve("summary.txt"))).contains("kube-harness report: ");
  }
}
