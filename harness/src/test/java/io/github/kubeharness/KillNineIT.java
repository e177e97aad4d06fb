package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.kubeharness.internal.process.RunDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
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

  /**
   * The kubeconfig an application gets for its ServiceAccount (Spring's and Quarkus' {@code
   * serviceAccount}) holds a token valid for an hour: it is an owner-only file under the owner-only
   * run root, and gone once the JVM is killed with SIGKILL.
   */
  @Test
  void aServiceAccountKubeconfigIsInTheRunRootAndGoneAfterKillNine() throws Exception {
    try (ChildJvm child = ChildJvm.start(ServiceAccountKubeconfigChild.class.getName())) {
      String ready = child.awaitLine(l -> l.startsWith("READY "), Duration.ofMinutes(2));
      Path file = Path.of(ready.replaceAll(".*file=(\\S+).*", "$1"));
      assertThat(file).startsWith(RunDirectory.defaultRoot()).content().contains("token: ");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo("rw-------");

      child.process().destroyForcibly(); // SIGKILL
      child.process().waitFor();

      await()
          .atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(file.getParent()).doesNotExist());
    }
  }
}
