package io.github.kubeharness.bench;

import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.junit.ControllerTest;
import org.junit.jupiter.api.RepeatedTest;

/**
 * {@link OverheadScenario} with the race controls idle: a {@link Faults} field routes the
 * controllers through the fault proxy, no hold or rule is ever set. The difference between the two
 * is what having the controls costs a test that does not use them.
 */
@ControllerTest(
    backend = "local",
    crds = "harness/src/test/resources/crds",
    reconcilers = BenchReconciler.class)
public class OverheadViaProxyScenario {

  Faults faults;

  @RepeatedTest(21)
  void empty() {}
}
