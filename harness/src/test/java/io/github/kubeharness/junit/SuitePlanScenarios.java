package io.github.kubeharness.junit;

import io.github.kubeharness.ComponentProcesses;
import io.github.kubeharness.ControlPlane;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * A suite of five classes on three control planes for {@link SuiteControlPlanesChecks}, run in
 * order: 1.37.2, 1.36.3, 1.37.2 again, 1.35.4, then a class without a control plane. Each records
 * the pid of its kube-apiserver and which of the pids seen so far are alive, as the processes say.
 */
final class SuitePlanScenarios {

  /** What one class saw: its own apiserver (0: none) and which earlier ones were alive. */
  record Seen(String label, long pid, Map<String, Boolean> alive) {}

  static final List<Seen> SEEN = new ArrayList<>();

  private SuitePlanScenarios() {}

  static synchronized void clear() {
    SEEN.clear();
  }

  static synchronized void record(String label, ControlPlane controlPlane) {
    long pid =
        controlPlane == null
            ? 0
            : ComponentProcesses.of(controlPlane).getOrDefault("kube-apiserver", -1L);
    Map<String, Boolean> alive = new LinkedHashMap<>();
    for (Seen earlier : SEEN) {
      if (earlier.pid() > 0) {
        alive.put(
            earlier.label(),
            ProcessHandle.of(earlier.pid()).map(ProcessHandle::isAlive).orElse(false));
      }
    }
    SEEN.add(new Seen(label, pid, alive));
  }

  @Order(1)
  @ControllerTest(profile = "minimal", kubernetesVersion = "1.37.2")
  static class FirstOnNewestScenario {
    @Test
    void records(ControlPlane controlPlane) {
      record("newest-1", controlPlane);
    }
  }

  @Order(2)
  @ControllerTest(profile = "minimal", kubernetesVersion = "1.36.3")
  static class OnlyOnMiddleScenario {
    @Test
    void records(ControlPlane controlPlane) {
      record("middle-2", controlPlane);
    }
  }

  @Order(3)
  @ControllerTest(profile = "minimal", kubernetesVersion = "1.37.2")
  static class LastOnNewestScenario {
    @Test
    void records(ControlPlane controlPlane) {
      record("newest-3", controlPlane);
    }
  }

  @Order(4)
  @ControllerTest(profile = "minimal", kubernetesVersion = "1.35.4")
  static class OnlyOnOldestScenario {
    @Test
    void records(ControlPlane controlPlane) {
      record("oldest-4", controlPlane);
    }
  }

  @Order(5)
  static class WithoutControlPlaneScenario {
    @Test
    void records() {
      record("none-5", null);
    }
  }
}
