package io.github.kubeharness.bench;

import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.RaceTest;

/**
 * Race runs with nothing in them: each run's duration is what the explorer adds per run (its own
 * namespace and controllers, settling, the invariants, the controllers' restart for "reconcile
 * again writes nothing") before a test's own body costs anything.
 */
@ControllerTest(
    backend = "local",
    crds = "harness/src/test/resources/crds",
    reconcilers = BenchReconciler.class)
public class ExplorerRunScenario {

  @RaceTest(runs = 11)
  void empty() {}
}
