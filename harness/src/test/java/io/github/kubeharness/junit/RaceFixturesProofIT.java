package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.Settings;
import io.github.kubeharness.TemporaryProperty;
import io.github.kubeharness.junit.ScenarioRunner.Outcome;
import io.github.kubeharness.junit.scenarios.ExplorerScenarios;
import io.github.kubeharness.junit.scenarios.RaceScenarios;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * The race fixtures' bugs hide from plain tests and not from their seeds, in numbers: each
 * fixture's plain test passes 100 runs out of 100, and each seed the explorer found fails 10
 * replays out of 10. Minutes of runs, so tagged {@code races} and left out of {@code make test}
 * ({@code make test-races}); {@code RacesIT} and {@code ExplorerIT} show the same in a few runs
 * each.
 */
@Tag("races")
class RaceFixturesProofIT {

  private static final int PLAIN_RUNS = 100;
  private static final int REPLAYS = 10;

  @ParameterizedTest
  @ValueSource(
      classes = {
        RaceScenarios.PlainScenario.class, // a child made twice when its event comes late
        ExplorerScenarios.HotLoopPlainScenario.class,
        ExplorerScenarios.LostUpdatePlainScenario.class
      })
  void aFixturesPlainTestPassesEveryRun(Class<?> plainScenario) {
    for (int run = 1; run <= PLAIN_RUNS; run++) {
      assertThat(ScenarioRunner.run(plainScenario))
          .as("plain run %d of %d", run, PLAIN_RUNS)
          .extracting(Outcome::status)
          .containsOnly(Status.SUCCESSFUL);
    }
  }

  @ParameterizedTest
  @CsvSource({
    "io.github.kubeharness.junit.scenarios.RaceScenarios$HeldDeliveryScenario, 1, oneChildPerWidget",
    "io.github.kubeharness.junit.scenarios.ExplorerScenarios$DuplicateChildScenario, 1, editAWidget",
    "io.github.kubeharness.junit.scenarios.ExplorerScenarios$LostUpdateScenario, 6, everyMessageIsKept",
    "io.github.kubeharness.junit.scenarios.ExplorerScenarios$HotLoopScenario, 1, statusIsWritten()"
  })
  void aFoundSeedFailsEveryReplay(Class<?> raceScenario, long seed, String test) {
    for (int replay = 1; replay <= REPLAYS; replay++) {
      List<Outcome> outcomes;
      try (TemporaryProperty ignored = TemporaryProperty.set(Settings.SEED, Long.toString(seed))) {
        outcomes = ScenarioRunner.run(raceScenario);
      }
      assertThat(outcomes)
          .as("replay %d of %d of seed %d", replay, REPLAYS, seed)
          .filteredOn(o -> o.displayName().startsWith(test))
          .extracting(Outcome::status)
          .containsExactly(Status.FAILED);
    }
  }
}
