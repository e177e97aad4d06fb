package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.kubeharness.BackendSensitive;
import io.github.kubeharness.Settings;
import io.github.kubeharness.TemporaryProperty;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.scenarios.FailingWidgetScenario;
import io.github.kubeharness.junit.scenarios.MultiClusterScenarios;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code kubeharness.pauseOnFailure}: a failing test waits at its failure with its cluster,
 * namespace and controllers alive, hands out a kubeconfig that reaches them, and goes on to its
 * teardown when the resume file is touched.
 */
class PauseOnFailureIT {

  private static final Path REPORT =
      Path.of(
          "target/kube-harness/reports",
          FailingWidgetScenario.class.getName(),
          "expectsAMessageTheControllerNeverWrites");
  private static final Path PAUSE = REPORT.resolve("pause");

  @BackendSensitive
  @Test
  void aFailingTestWaitsWithItsClusterAliveUntilTheResumeFileIsTouched() throws Exception {
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    PrintStream before = System.err;
    // "always": CI runs this test with CI=true, where "true" does not pause (FailurePauseTest).
    try (var mode = TemporaryProperty.set(Settings.PAUSE_ON_FAILURE, "always");
        var minutes = TemporaryProperty.set(Settings.PAUSE_ON_FAILURE_MINUTES, "10")) {
      System.setErr(new PrintStream(new Tee(before, said), true, StandardCharsets.UTF_8));
      CompletableFuture<List<ScenarioRunner.Outcome>> run =
          CompletableFuture.supplyAsync(() -> ScenarioRunner.run(FailingWidgetScenario.class));

      // The kubeconfig is written before the message that names it: wait for both.
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () ->
                  Files.exists(PAUSE.resolve("kubeconfig"))
                      && said.toString(StandardCharsets.UTF_8)
                          .contains("touch " + PAUSE.toAbsolutePath().resolve("resume")));
      assertThat(Files.getPosixFilePermissions(PAUSE))
          .isEqualTo(PosixFilePermissions.fromString("rwx------"));
      assertThat(Files.getPosixFilePermissions(PAUSE.resolve("kubeconfig")))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      String message = said.toString(StandardCharsets.UTF_8);
      assertThat(message)
          .contains(
              "kube-harness: PAUSED at the failure of " + FailingWidgetScenario.class.getName())
          .contains("kubectl --kubeconfig " + PAUSE.toAbsolutePath().resolve("kubeconfig"))
          .contains("touch " + PAUSE.toAbsolutePath().resolve("resume"));

      // The kubeconfig's context is the failing test's namespace, and everything is as it was:
      // the object the test made is there and its controller still reconciles new ones.
      try (KubernetesClient paused =
          new KubernetesClientBuilder()
              .withConfig(Config.fromKubeconfig(Files.readString(PAUSE.resolve("kubeconfig"))))
              .build()) {
        String namespace = paused.getNamespace();
        assertThat(message).contains("namespace " + namespace);
        assertThat(paused.resources(Widget.class).withName("broken").get()).isNotNull();
        paused.resources(Widget.class).resource(Widget.named("looked-at", "still here")).create();
        eventually(paused.configMaps().withName("looked-at"))
            .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "still here"));
        assertThat(run).isNotDone();

        Files.createFile(PAUSE.resolve("resume"));
        Throwable failure = ScenarioRunner.onlyFailure(run.get(60, TimeUnit.SECONDS));
        assertThat(failure.getMessage()).contains("expected message");
      }
      // Gone with the pause: the credential of a cluster the scenario's end has stopped.
      assertThat(PAUSE).doesNotExist();
      assertThat(said.toString(StandardCharsets.UTF_8)).contains("resumed");
    } finally {
      System.setErr(before);
    }
  }

  @Test
  void aTestWithClustersPausesWithAKubeconfigPerCluster() throws Exception {
    Path pause =
        Path.of(
            "target/kube-harness/reports",
            MultiClusterScenarios.FailingHubEdge.class.getName(),
            "expectsTheEdgeToHoldWhatItNeverGets",
            "pause");
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    PrintStream before = System.err;
    try (var mode = TemporaryProperty.set(Settings.PAUSE_ON_FAILURE, "always");
        var minutes = TemporaryProperty.set(Settings.PAUSE_ON_FAILURE_MINUTES, "10")) {
      System.setErr(new PrintStream(new Tee(before, said), true, StandardCharsets.UTF_8));
      CompletableFuture<List<ScenarioRunner.Outcome>> run =
          CompletableFuture.supplyAsync(
              () -> ScenarioRunner.run(MultiClusterScenarios.FailingHubEdge.class));

      Path edgeKubeconfig = pause.resolve("kubeconfig-edge-1");
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () ->
                  Files.exists(edgeKubeconfig)
                      && said.toString(StandardCharsets.UTF_8)
                          .contains("touch " + pause.toAbsolutePath().resolve("resume")));
      assertThat(Files.getPosixFilePermissions(edgeKubeconfig))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      assertThat(said.toString(StandardCharsets.UTF_8))
          .contains("Cluster edge-1: kubectl --kubeconfig " + edgeKubeconfig.toAbsolutePath());
      // Each kubeconfig reaches its own cluster, in the test's namespace: the ConfigMap the hub's
      // controller wrote is on the edge, the Widget on the hub.
      try (KubernetesClient edge = client(edgeKubeconfig);
          KubernetesClient hub = client(pause.resolve("kubeconfig"))) {
        assertThat(edge.getNamespace()).isEqualTo(hub.getNamespace());
        assertThat(edge.configMaps().withName("widget-fanned").get()).isNotNull();
        assertThat(hub.configMaps().withName("widget-fanned").get()).isNull();
        assertThat(hub.resources(Widget.class).withName("fanned").get()).isNotNull();
      }
      assertThat(run).isNotDone();
      Files.createFile(pause.resolve("resume"));
      assertThat(ScenarioRunner.onlyFailure(run.get(60, TimeUnit.SECONDS)).getMessage())
          .contains("never-written");
      assertThat(pause).doesNotExist();
    } finally {
      System.setErr(before);
    }
  }

  private static KubernetesClient client(Path kubeconfig) throws java.io.IOException {
    return new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
        .build();
  }

  /** Writes to two streams: the console keeps its output while the test reads it. */
  private static final class Tee extends OutputStream {
    private final OutputStream first;
    private final OutputStream second;

    Tee(OutputStream first, OutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public synchronized void write(int b) throws java.io.IOException {
      first.write(b);
      second.write(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
      first.write(b, off, len);
      second.write(b, off, len);
    }
  }
}
