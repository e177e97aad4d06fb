package io.github.kubeharness.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.NamespaceMode;
import io.github.kubeharness.junit.fixtures.Widget;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Creates widgets one by one and records create-to-reconcile latency. */
@ControllerTest(
    crds = "harness/src/test/resources/crds",
    reconcilers = BenchReconciler.class,
    namespaceMode = NamespaceMode.PER_CLASS)
public class LatencyScenario {

  static final java.util.List<Double> LATENCIES_MS = new java.util.ArrayList<>();

  @Test
  void createToReconcile(KubernetesClient client) {
    for (int i = 0; i < 30; i++) {
      String name = "w" + i;
      // From sending the create to the reconciler's first call: what a user's test waits for.
      long created = System.nanoTime();
      client.resources(Widget.class).resource(Widget.named(name, "m")).create();
      Awaitility.await()
          .pollInterval(java.time.Duration.ofMillis(1))
          .until(() -> BenchReconciler.FIRST_RECONCILE_NANOS.containsKey(name));
      LATENCIES_MS.add((BenchReconciler.FIRST_RECONCILE_NANOS.get(name) - created) / 1e6);
    }
  }
}
