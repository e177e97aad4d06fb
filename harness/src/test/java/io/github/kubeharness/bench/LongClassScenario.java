package io.github.kubeharness.bench;

import io.github.kubeharness.junit.ControllerTest;
import org.junit.jupiter.api.RepeatedTest;

/** {@link OverheadScenario} in a 200-test class: does the per-test cost stay flat? */
@ControllerTest(crds = "harness/src/test/resources/crds", reconcilers = BenchReconciler.class)
public class LongClassScenario {

  @RepeatedTest(200)
  void empty() {}
}
