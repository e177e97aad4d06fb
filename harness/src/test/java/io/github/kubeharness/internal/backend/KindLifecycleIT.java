package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.kubeharness.BackendChild;
import io.github.kubeharness.ChildJvm;
import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The kind backend's cluster across JVMs: removed by the watchdog when its JVM is killed with
 * SIGKILL (node container and volume), and with {@code kubeharness.kind.reuse=true} kept for the
 * next JVM, which attaches to it. Tagged "kind" (needs {@code make kind-image}).
 */
@Tag("kind")
class KindLifecycleIT {

  @Test
  void theClusterIsRemovedWhenItsJvmIsKilledWithSigkill() throws Exception {
    Set<String> volumesBefore = docker("volume", "ls", "-q");
    try (ChildJvm child = ChildJvm.start(BackendChild.class.getName(), "kind", "standard")) {
      child.awaitLine(l -> l.startsWith("READY "), Duration.ofMinutes(4));
      Set<String> nodes = kindNodes();
      assertThat(nodes).anyMatch(n -> n.startsWith("kube-harness-" + child.process().pid() + "-"));

      child.process().destroyForcibly();
      child.process().waitFor();

      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(kindNodes())
                      .noneMatch(n -> n.startsWith("kube-harness-" + child.process().pid() + "-")));
      assertThat(docker("volume", "ls", "-q")).isSubsetOf(volumesBefore);
    }
  }

  @Test
  void withReuseTheNextJvmAttachesToTheClusterTheFirstLeft() throws Exception {
    List<String> reuse = List.of("-Dkubeharness.kind.reuse=true");
    String first;
    try (ChildJvm child =
        ChildJvm.start(Map.of(), reuse, BackendChild.class.getName(), "kind", "standard")) {
      first = child.awaitLine(l -> l.startsWith("READY "), Duration.ofMinutes(4));
      child.process().destroy(); // SIGTERM: shutdown hooks run, and keep the cluster
      child.process().waitFor();
    }
    Set<String> kept = kindNodes();
    assertThat(kept).anyMatch(n -> n.startsWith("kube-harness-reuse-"));
    try (ChildJvm child =
        ChildJvm.start(Map.of(), reuse, BackendChild.class.getName(), "kind", "standard")) {
      child.awaitLine(l -> l.contains("attached to kind cluster"), Duration.ofMinutes(2));
      String second = child.awaitLine(l -> l.startsWith("READY "), Duration.ofMinutes(1));
      assertThat(second).isEqualTo(first); // the same API server, at the same address
      child.process().destroy();
      child.process().waitFor();
    } finally {
      for (String node : kindNodes()) {
        if (node.startsWith("kube-harness-reuse-")) {
          docker("rm", "-f", "-v", node);
        }
      }
    }
  }

  /** Names of the kind node containers, by the docker CLI (independent of the harness). */
  private static Set<String> kindNodes() throws IOException, InterruptedException {
    return docker("ps", "-a", "--filter", "label=io.x-k8s.kind.cluster", "--format", "{{.Names}}");
  }

  private static Set<String> docker(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of("docker"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    Set<String> lines =
        new HashSet<>(List.of(new String(process.getInputStream().readAllBytes()).split("\\s+")));
    process.waitFor();
    lines.remove("");
    return lines;
  }
}
