package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.kubeharness.Settings;
import io.github.kubeharness.TemporaryProperty;
import io.github.kubeharness.junit.ScenarioRunner.Outcome;
import io.github.kubeharness.junit.scenarios.RaceScenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * A controller with a known race (RacyChildReconciler: a second child when the widget's edit
 * overtakes the first child's event) passes its plain test; its {@code @RaceTest} under held
 * delivery fails for the seed whose order lets the edit go first and passes for the others; the
 * failure names its seed, and that seed replays the same schedule and the same failure.
 */
class RacesIT {

  private static final Path REPORTS =
      Path.of("target/kube-harness/reports")
          .resolve(RaceScenarios.HeldDeliveryScenario.class.getName());

  @Test
  void aRaceTestFindsTheRaceAndItsSeedReplaysIt() throws Exception {
    assertThat(ScenarioRunner.run(RaceScenarios.PlainScenario.class))
        .extracting(Outcome::status)
        .containsExactly(Status.SUCCESSFUL);

    List<Outcome> explored = ScenarioRunner.run(RaceScenarios.HeldDeliveryScenario.class);

    assertThat(explored)
        .extracting(Outcome::displayName, Outcome::status)
        .containsExactly(
            tuple("oneChildPerWidget() [seed 1]", Status.FAILED),
            tuple("oneChildPerWidget() [seed 2]", Status.SUCCESSFUL),
            tuple("oneChildPerWidget() [seed 3]", Status.SUCCESSFUL),
            tuple("oneChildPerWidget() [seed 4]", Status.SUCCESSFUL));
    assertThat(ScenarioRunner.fullMessage(explored.get(0).failure()))
        .contains("Expected size: 1 but was: 2")
        .contains("seed 1 (replay: -Dkubeharness.seed=1)")
        .contains("schedule.txt: ");
    List<String> schedule = scheduleSteps();
    assertThat(schedule).containsExactly("1 MODIFIED widgets", "2 ADDED configmaps");

    for (int replay = 1; replay <= 3; replay++) {
      List<Outcome> again = runWithSeed(1);
      assertThat(again)
          .as("replay " + replay + " of seed 1")
          .extracting(Outcome::displayName, Outcome::status)
          .containsExactly(tuple("oneChildPerWidget() [seed 1]", Status.FAILED));
      assertThat(scheduleSteps()).isEqualTo(schedule);
    }
    assertThat(runWithSeed(2)).extracting(Outcome::status).containsExactly(Status.SUCCESSFUL);
  }

  @Test
  void aRaceTestWhoseRunsCannotHaveANamespaceEachIsRefused() {
    List<Outcome> outcomes = ScenarioRunner.run(RaceScenarios.PerClassRaceTestScenario.class);

    assertThat(outcomes).extracting(Outcome::status).containsExactly(Status.FAILED);
    assertThat(outcomes.get(0).failure())
        .hasMessageContaining("namespaceMode = PER_CLASS")
        .hasMessageContaining("cannotRun is a @RaceTest")
        .hasMessageContaining("move it to a class without PER_CLASS");
  }

  private static List<Outcome> runWithSeed(long seed) {
    try (TemporaryProperty ignored = TemporaryProperty.set(Settings.SEED, Long.toString(seed))) {
      return ScenarioRunner.run(RaceScenarios.HeldDeliveryScenario.class);
    }
  }

  /** The order seed 1's run delivered in: kinds only (names and versions differ between runs). */
  private static List<String> scheduleSteps() throws Exception {
    return Files.readAllLines(REPORTS.resolve("oneChildPerWidget-seed-1/schedule.txt")).stream()
        .filter(l -> l.contains("(step "))
        .map(l -> l.replaceAll(".*delivered (\\w+ \\w+) .*\\(step (\\d+)\\)", "$2 $1"))
        .toList();
  }
}
