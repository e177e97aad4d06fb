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
 * replays out of 10 — each replay delivering the found run's schedule and failing for its reason
 * ({@link RaceRun}), so a replay that timed out or could not start counts against the proof.
 * Minutes of runs, so tagged {@code races} and left out of {@code make test} ({@code make
 * test-races}); {@code -Draces.plainRuns=N -Draces.replays=M} run fewer. {@code RacesIT} and {@code
 * ExplorerIT} show the same in a few runs each.
 */
@Tag("races")
class RaceFixturesProofIT {

  private static final int PLAIN_RUNS = Integer.getInteger("races.plainRuns", 100);
  private static final int REPLAYS = Integer.getInteger("races.replays", 10);

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

  /**
   * The explorer's own run finds the seed's failure (its reason as the bug makes it); every replay
   * of the seed delivers the same schedule and fails the same way.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "io.github.kubeharness.junit.scenarios.RaceScenarios$HeldDeliveryScenario | 1 | oneChildPerWidget | Expected size: 1 but was: 2",
        "io.github.kubeharness.junit.scenarios.ExplorerScenarios$DuplicateChildScenario | 1 | editAWidget | NO_DUPLICATE_CHILDREN: the controllers made the same child more than once",
        "io.github.kubeharness.junit.scenarios.ExplorerScenarios$LostUpdateScenario | 6 | everyMessageIsKept | [\"two\"]",
        "io.github.kubeharness.junit.scenarios.ExplorerScenarios$HotLoopScenario | 1 | statusIsWritten | CONVERGES: after the test body the controllers wrote"
      })
  void aFoundSeedFailsEveryReplay(Class<?> raceScenario, long seed, String test, String bug) {
    RaceRun found =
        RaceRun.of(raceScenario, test, seed, runOf(ScenarioRunner.run(raceScenario), test, seed));
    assertThat(found.reason()).as("the found run's failure").contains(bug);
    for (int replay = 1; replay <= REPLAYS; replay++) {
      List<Outcome> outcomes;
      try (TemporaryProperty ignored = TemporaryProperty.set(Settings.SEED, Long.toString(seed))) {
        outcomes = ScenarioRunner.run(raceScenario);
      }
      String what = "replay " + replay + " of " + REPLAYS + " of seed " + seed;
      found.assertReplayedBy(
          RaceRun.of(raceScenario, test, seed, runOf(outcomes, test, seed)), what);
    }
  }

  /** The outcome of {@code test}'s run under {@code seed}. */
  private static Outcome runOf(List<Outcome> outcomes, String test, long seed) {
    String name = test + "() [seed " + seed + "]";
    return outcomes.stream()
        .filter(o -> o.displayName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no run " + name + " among " + outcomes));
  }
}
