package io.github.kubeharness.bench;

import io.github.kubeharness.junit.ControllerTest;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Empty tests: their duration is the harness's per-test overhead (namespace, controller, teardown).
 */
@ControllerTest(crds = "harness/src/test/resources/crds", reconcilers = BenchReconciler.class)
public class OverheadScenario {

  @RepeatedTest(21)
  void empty() {}
}
