package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JVM that started a control plane is killed with SIGKILL — no shutdown hook runs — and still
 * none of its etcd, kube-apiserver or kube-controller-manager processes survive it, nor its run
 * directory. The watchdog's target is 5 seconds; the test allows more so a loaded CI machine does
 * not make it flaky (the number is measured by the benchmark, not asserted here).
 */
class KillNineIT {

  @ParameterizedTest
  @ValueSource(strings = {"minimal", "standard", "simulated"})
  void childrenDieWithTheJvmEvenOnKillNine(String profile) throws Exception {
    try (ChildJvm child = ChildJvm.start(KillNineChild.class.getName(), profile)) {
      String ready = child.awaitLine(l -> l.startsWith("READY "), Duration.ofMinutes(2));
      List<Long> pids =
          Arrays.stream(ready.replaceAll(".*pids=([0-9,]+).*", "$1").split(","))
              .map(Long::parseLong)
              .toList();
      Path run = Path.of(ready.replaceAll(".*run=(\\S+).*", "$1"));
      // etcd, kube-apiserver (+ kube-controller-manager (+ kube-scheduler, kwok))
      assertThat(pids).hasSize(Map.of("minimal", 2, "standard", 3, "simulated", 5).get(profile));
      assertThat(pids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isPresent());

      child.process().destroyForcibly(); // SIGKILL
      child.process().waitFor();

      await()
          .atMost(Duration.ofSeconds(15))
          .untilAsserted(
              () -> {
                assertThat(pids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isEmpty());
                assertThat(run).doesNotExist();
              });
    }
  }
}
