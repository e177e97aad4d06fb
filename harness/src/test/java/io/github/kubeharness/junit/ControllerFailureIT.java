package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.junit.scenarios.MissingWatchScenario;
import io.github.kubeharness.junit.scenarios.PassingWidgetScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * A controller's fatal error fails the test that runs it, with a report, and nothing else: the
 * classes after it in the same JVM still run. (Without the harness's informer-stopped handler,
 * JOSDK calls System.exit(1) and this whole test JVM ends.)
 */
class ControllerFailureIT {

  @Test
  void aForbiddenWatchFailsOneTestAndTheJvmGoesOn() throws Exception {
    List<ScenarioRunner.Outcome> outcomes =
        ScenarioRunner.run(MissingWatchScenario.class, PassingWidgetScenario.class);

    Throwable failure = ScenarioRunner.onlyFailure(outcomes);
    assertThat(ScenarioRunner.fullMessage(failure))
        .contains("widgets")
        .contains("watch")
        .contains("kube-harness report: ");
    assertThat(outcomes)
        .filteredOn(o -> o.status() == Status.SUCCESSFUL && o.displayName().startsWith("widget"))
        .hasSize(1);

    Path report =
        Path.of(
            "target/kube-harness/reports",
            MissingWatchScenario.class.getName(),
            "widgetIsReconciled");
    assertThat(Files.readAllLines(report.resolve("api-requests.txt")))
        .anySatisfy(
            line ->
                assertThat(line)
                    .containsSubsequence(
                        ":widget-controller", "watch", "widgets", "-> 403  DENIED"));
  }
}
