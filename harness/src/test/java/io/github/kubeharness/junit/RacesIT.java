package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.Settings;
import io.github.kubeharness.TemporaryProperty;
import io.github.kubeharness.junit.ScenarioRunner.Outcome;
import io.github.kubeharness.junit.scenarios.RaceScenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * A controller with a known race (RacyChildReconciler: a second child when the widget's edit
 * overtakes the first child's event) passes its plain test, fails under held delivery for the seeds
 * whose order lets the edit go first, and a failing seed, printed by the failure, replays the same
 * schedule and the same failure.
 */
class RacesIT {

  private static final Path REPORTS = Path.of("target/kube-harness/reports");
  private static final int SEEDS = 12;

  @Test
  void theRaceIsFoundBySomeSeedAndReplayedByIt() throws Exception {
    assertThat(ScenarioRunner.run(RaceScenarios.PlainScenario.class))
        .extracting(Outcome::status)
        .containsExactly(Status.SUCCESSFUL);

    Long failing = null;
    Long passing = null;
    List<String> schedule = null;
    List<String> tried = new ArrayList<>();
    for (long seed = 1; seed <= SEEDS && (failing == null || passing == null); seed++) {
      Outcome outcome = runWithSeed(seed);
      tried.add(seed + ": " + outcome.status());
      if (outcome.status() == Status.FAILED) {
        if (failing == null) {
          failing = seed;
          schedule = scheduleSteps();
        }
        assertThat(ScenarioRunner.fullMessage(outcome.failure()))
            .contains("Expected size: 1 but was: 2")
            .contains("seed " + seed + " (replay: -Dkubeharness.seed=" + seed + ")")
            .contains("schedule.txt: ");
      } else {
        passing = passing == null ? seed : passing;
      }
    }
    assertThat(failing).as("a seed that fails, of " + tried).isNotNull();
    assertThat(passing).as("a seed that passes, of " + tried).isNotNull();

    assertThat(schedule).hasSize(2);
    for (int replay = 0; replay < 3; replay++) {
      Outcome again = runWithSeed(failing);
      assertThat(again.status())
          .as("replay " + replay + " of seed " + failing)
          .isEqualTo(Status.FAILED);
      assertThat(scheduleSteps()).isEqualTo(schedule);
    }
    assertThat(runWithSeed(passing).status()).isEqualTo(Status.SUCCESSFUL);
  }

  private static Outcome runWithSeed(long seed) {
    try (TemporaryProperty ignored = TemporaryProperty.set(Settings.SEED, Long.toString(seed))) {
      List<Outcome> outcomes = ScenarioRunner.run(RaceScenarios.HeldDeliveryScenario.class);
      assertThat(outcomes).hasSize(1);
      return outcomes.get(0);
    }
  }

  /** The order the last failed run delivered in: kinds only (names and versions differ). */
  private static List<String> scheduleSteps() throws Exception {
    Path file =
        REPORTS.resolve(
            RaceScenarios.HeldDeliveryScenario.class.getName() + "/oneChildPerWidget/schedule.txt");
    return Files.readAllLines(file).stream()
        .filter(l -> l.contains("(step "))
        .map(l -> l.replaceAll(".*delivered (\\w+ \\w+) .*\\(step (\\d+)\\)", "$2 $1"))
        .toList();
  }
}
