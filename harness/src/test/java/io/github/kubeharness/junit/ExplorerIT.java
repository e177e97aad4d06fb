package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.kubeharness.Settings;
import io.github.kubeharness.TemporaryProperty;
import io.github.kubeharness.junit.ScenarioRunner.Outcome;
import io.github.kubeharness.junit.scenarios.ExplorerScenarios;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * The explorer's built-in invariants on controllers with known bugs: each bug's plain test passes;
 * under {@code @RaceTest} the invariant the bug breaks fails the run, naming itself, its counts and
 * the seed; with that invariant turned off the same run passes; and the lost update's seed replays
 * its failure: the same stale reads, the same assertion failing the same way ({@link RaceRun}).
 */
class ExplorerIT {

  @Test
  void aHotLoopPassesItsPlainTestAndFailsConvergence() {
    assertThat(ScenarioRunner.run(ExplorerScenarios.HotLoopPlainScenario.class))
        .extracting(Outcome::status)
        .containsExactly(Status.SUCCESSFUL);

    List<Outcome> explored = ScenarioRunner.run(ExplorerScenarios.HotLoopScenario.class);

    assertThat(explored)
        .extracting(Outcome::displayName, Outcome::status)
        .containsExactlyInAnyOrder(
            tuple("statusIsWritten() [seed 1]", Status.FAILED),
            tuple("statusIsWrittenLoopAllowed() [seed 1]", Status.SUCCESSFUL));
    assertThat(ScenarioRunner.fullMessage(failure(explored)))
        .contains("Race invariant broken under seed 1")
        .contains("CONVERGES: after the test body the controllers wrote widgets/status w")
        .contains("bound: 10 writes to one object")
        .contains("@RaceTest(skip = Invariant.CONVERGES)")
        .contains("seed 1 (replay: -Dkubeharness.seed=1)")
        .contains("kube-harness report: ");
  }

  @Test
  void aReconcileThatWritesOnEveryRestartFailsIdempotence() {
    List<Outcome> explored = ScenarioRunner.run(ExplorerScenarios.StampingScenario.class);

    assertThat(explored)
        .extracting(Outcome::displayName, Outcome::status)
        .containsExactlyInAnyOrder(
            tuple("statusIsWritten() [seed 1]", Status.FAILED),
            tuple("statusIsWrittenRestartsAllowed() [seed 1]", Status.SUCCESSFUL));
    assertThat(ScenarioRunner.fullMessage(failure(explored)))
        .contains("RECONCILE_AGAIN_WRITES_NOTHING: the controllers, restarted on converged objects")
        .contains("changed 1 object: patch widgets/status w (resourceVersion ")
        .doesNotContain("CONVERGES:");
  }

  @Test
  void aChildMadeTwiceFailsTheDuplicateCheckUnderTheSeedThatMakesIt() {
    List<Outcome> explored = ScenarioRunner.run(ExplorerScenarios.DuplicateChildScenario.class);

    assertThat(explored)
        .extracting(Outcome::displayName, Outcome::status)
        .containsExactly(
            tuple("editAWidget() [seed 1]", Status.FAILED),
            tuple("editAWidget() [seed 2]", Status.SUCCESSFUL),
            tuple("editAWidget() [seed 3]", Status.SUCCESSFUL),
            tuple("editAWidget() [seed 4]", Status.SUCCESSFUL));
    assertThat(ScenarioRunner.fullMessage(explored.get(0).failure()))
        .contains("NO_DUPLICATE_CHILDREN: the controllers made the same child more than once: 2")
        .contains("configmaps of generateName \"w-\" and the same labels owned by Widget w")
        .doesNotContain("NO_ORPHANS:");
  }

  @Test
  void aChildWhoseOwnerIsGoneFailsTheOrphanCheck() {
    List<Outcome> explored = ScenarioRunner.run(ExplorerScenarios.OrphanScenario.class);

    assertThat(explored)
        .extracting(Outcome::displayName, Outcome::status)
        .containsExactlyInAnyOrder(
            tuple("deleteAWidget() [seed 1]", Status.FAILED),
            tuple("deleteAWidgetNoCollector() [seed 1]", Status.SUCCESSFUL));
    assertThat(ScenarioRunner.fullMessage(failure(explored)))
        .contains("NO_ORPHANS: 1 child the controllers made name an owner that is not there:")
        .contains("(owner Widget w, uid ");
  }

  @Test
  void aLostUpdatePassesItsPlainTestAndItsSeedReplaysTheLoss() {
    assertThat(ScenarioRunner.run(ExplorerScenarios.LostUpdatePlainScenario.class))
        .extracting(Outcome::status)
        .containsExactly(Status.SUCCESSFUL);

    List<Outcome> explored = ScenarioRunner.run(ExplorerScenarios.LostUpdateScenario.class);

    assertThat(explored)
        .extracting(Outcome::status)
        .containsExactly(
            Status.SUCCESSFUL,
            Status.SUCCESSFUL,
            Status.SUCCESSFUL,
            Status.SUCCESSFUL,
            Status.SUCCESSFUL,
            Status.FAILED);
    assertThat(ScenarioRunner.fullMessage(explored.get(5).failure()))
        .contains("[\"two\"]")
        .contains("seed 6 (replay: -Dkubeharness.seed=6)");
    // What seed 6 did: its two reads of widgets answered from one snapshot (the first message
    // lost), read from its report before the replays replace it.
    RaceRun found =
        RaceRun.of(
            ExplorerScenarios.LostUpdateScenario.class, "everyMessageIsKept", 6, explored.get(5));
    assertThat(found.schedule()).as("seed 6's stale reads").anyMatch(l -> l.startsWith("stale "));
    for (int replay = 1; replay <= 2; replay++) {
      List<Outcome> again;
      try (TemporaryProperty ignored = TemporaryProperty.set(Settings.SEED, "6")) {
        again = ScenarioRunner.run(ExplorerScenarios.LostUpdateScenario.class);
      }
      assertThat(again)
          .as("replay " + replay + " of seed 6")
          .extracting(Outcome::displayName, Outcome::status)
          .containsExactly(tuple("everyMessageIsKept() [seed 6]", Status.FAILED));
      found.assertReplayedBy(
          RaceRun.of(
              ExplorerScenarios.LostUpdateScenario.class, "everyMessageIsKept", 6, again.get(0)),
          "replay " + replay + " of seed 6");
    }
  }

  private static Throwable failure(List<Outcome> outcomes) {
    return outcomes.stream()
        .filter(o -> o.status() == Status.FAILED)
        .findFirst()
        .orElseThrow()
        .failure();
  }
}
