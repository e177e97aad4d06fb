package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.junit.scenarios.ParallelSuite;
import io.github.kubeharness.junit.scenarios.ParallelSuite.Ran;
import io.github.kubeharness.junit.scenarios.ParallelSuiteClasses;
import io.github.kubeharness.junit.scenarios.PerClassInParallelScenario;
import io.github.kubeharness.junit.scenarios.RaceScenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

/**
 * A suite of {@code @ControllerTest} classes run with JUnit's parallel execution, classes and
 * methods at once, as the set-up in docs/controller-test.md asks: every class passes (but the one
 * that fails on purpose), they really ran at the same time, and nothing leaked between them — each
 * test its own namespace, one start of each shared control plane, a restart of the API server that
 * no other test saw, a failure report of the failing test's own namespace only, the race explorer's
 * seeds deciding as they do alone.
 */
class ParallelSuiteIT {

  /** The set-up the docs give, with a fixed number of threads so the meeting points can meet. */
  static final Map<String, String> PARALLEL =
      Map.of(
          "junit.jupiter.execution.parallel.enabled", "true",
          "junit.jupiter.execution.parallel.mode.default", "concurrent",
          "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
          "junit.jupiter.execution.parallel.config.strategy", "fixed",
          "junit.jupiter.execution.parallel.config.fixed.parallelism", "4");

  @Test
  void classesRunAtTheSameTimeEachInItsOwnNamespace() throws Exception {
    ParallelSuite.reset();
    List<Class<?>> classes = new ArrayList<>(ParallelSuiteClasses.ALL);
    // The race explorer beside them: each seed decides its run as when the class runs alone.
    classes.add(RaceScenarios.HeldDeliveryScenario.class);
    List<ScenarioRunner.Outcome> outcomes =
        ScenarioRunner.run(PARALLEL, classes.toArray(Class<?>[]::new));
    List<Ran> ran = List.copyOf(ParallelSuite.RAN);

    assertThat(outcomes)
        .filteredOn(o -> o.status() != TestExecutionResult.Status.SUCCESSFUL)
        .as("the tests that fail on purpose, and nothing else")
        .extracting(ScenarioRunner.Outcome::displayName)
        .containsExactlyInAnyOrder(
            "expectsAMessageTheControllerNeverWrites(KubernetesClient, String)",
            "oneChildPerWidget() [seed 1]");
    assertThat(outcomes)
        .as("every test ran: the suite's and the race test's four runs")
        .hasSize(ran.size() + 4);
    assertThat(
            ScenarioRunner.fullMessage(
                outcomes.stream()
                    .filter(o -> o.displayName().equals("oneChildPerWidget() [seed 1]"))
                    .findFirst()
                    .orElseThrow()
                    .failure()))
        .contains("Expected size: 1 but was: 2");
    assertThat(ran).as("tests that recorded their body").hasSize(21);

    assertThat(ParallelSuite.peakConcurrency(ran))
        .as("most tests running at one instant (%s)", ran)
        .isGreaterThanOrEqualTo(2);
    assertThat(ran.stream().map(Ran::namespace).distinct()).hasSize(ran.size());

    assertThat(seen(ran, "Widgets", "apiserver")).as("the minimal control plane").hasSize(1);
    assertThat(seen(ran, "Standard", "apiserver")).as("the standard control plane").hasSize(1);
    assertThat(seen(ran, "Standard", "apiserver"))
        .doesNotContainAnyElementsOf(seen(ran, "Widgets", "apiserver"));
    assertThat(seen(ran, "HubEdge", "edge")).as("the classes' own edge cluster").hasSize(1);
    assertThat(seen(ran, "ApiServerDownAmongOthers.witness", "sawRestartAsked"))
        .as("the witness was polling when the restart was asked for")
        .containsExactly("true");

    // The failing test's report: its own namespace, not the one the same reconciler served beside.
    String failing = namespaceOf(ran, "FailsWithItsOwnReport.fails");
    Path log =
        Path.of("target/kube-harness/reports")
            .resolve(ParallelSuiteClasses.FAILING.getName())
            .resolve("expectsAMessageTheControllerNeverWrites")
            .resolve("controller.log");
    String lines = Files.readString(log);
    assertThat(lines).contains(failing + "/same-name");
    for (Ran other : ran) {
      if (!other.namespace().equals(failing)) {
        assertThat(lines)
            .as("%s in the report of %s", other.test(), failing)
            .doesNotContain(other.namespace());
      }
    }
  }

  @Test
  void testsThatShareAPerClassNamespaceAreNotRunAtTheSameTime() {
    PerClassInParallelScenario.anotherEnded = new CountDownLatch(1);
    List<ScenarioRunner.Outcome> outcomes =
        ScenarioRunner.run(PARALLEL, PerClassInParallelScenario.class);

    assertThat(outcomes).hasSize(2);
    assertThat(ScenarioRunner.onlyFailure(outcomes))
        .hasMessageContaining(
            " at the same time, but with namespaceMode = PER_CLASS they share one namespace")
        .hasMessageContaining("@Execution(ExecutionMode.SAME_THREAD)");
  }

  /** What the tests whose name starts with {@code prefix} saw under {@code key}, distinct. */
  private static Set<String> seen(List<Ran> ran, String prefix, String key) {
    return ran.stream()
        .filter(r -> r.test().startsWith(prefix))
        .map(r -> r.seen().get(key))
        .collect(Collectors.toSet());
  }

  private static String namespaceOf(List<Ran> ran, String test) {
    return ran.stream().filter(r -> r.test().equals(test)).findFirst().orElseThrow().namespace();
  }
}
