package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.junit.scenarios.ParallelScenarios;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

/** Test classes run concurrently (JUnit parallel execution) share the cluster, not namespaces. */
class ParallelClassesIT {

  @Test
  void twoClassesRunConcurrentlyInTheirOwnNamespaces() {
    ParallelScenarios.bothRunning = new CountDownLatch(2);
    List<ScenarioRunner.Outcome> outcomes =
        ScenarioRunner.run(
            Map.of(
                "junit.jupiter.execution.parallel.enabled", "true",
                "junit.jupiter.execution.parallel.mode.default", "concurrent",
                "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
                "junit.jupiter.execution.parallel.config.strategy", "fixed",
                "junit.jupiter.execution.parallel.config.fixed.parallelism", "2"),
            ParallelScenarios.First.class,
            ParallelScenarios.Second.class);

    assertThat(outcomes)
        .hasSize(2)
        .allSatisfy(
            o ->
                assertThat(o.status())
                    .as(String.valueOf(o.failure()))
                    .isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
  }
}
