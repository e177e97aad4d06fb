package io.github.kubeharness.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The `kube-harness` command against the real binaries. */
class KubeHarnessCliIT {

  @Test
  void upWritesAWorkingKubeconfigAndStopsCleanlyOnSigterm(@TempDir Path dir) throws Exception {
    Path kubeconfig = dir.resolve("nested/kubeconfig");
    try (var child =
        io.github.kubeharness.ChildJvm.cli(
            "up", "--profile", "minimal", "--kubeconfig", kubeconfig.toString())) {
      String logsLine = child.awaitLine(l -> l.contains("ready at"), Duration.ofMinutes(2));
      String export =
          child.awaitLine(l -> l.startsWith("export KUBECONFIG="), Duration.ofSeconds(10));
      assertThat(export).isEqualTo("export KUBECONFIG=" + kubeconfig.toAbsolutePath());
      Path run = Path.of(logsLine.replaceAll(".*logs in (\\S+).*", "$1"));

      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        assertThat(client.namespaces().withName("default").get()).isNotNull();
      }
      assertThat(permissions(kubeconfig))
          .as("the admin kubeconfig: owner only")
          .isEqualTo("rw-------");

      // SIGTERM, as Ctrl-C or `kill` would. Through the ProcessHandle: Process.destroy() also
      // closes our end of the child's output, and its last line would be lost.
      child.process().toHandle().destroy();
      // The shutdown hook says when it is done, while the JVM still lives: by then everything must
      // be gone already. (A broken hook would leave it to the watchdog after the JVM exits, and
      // this line would never come.)
      child.awaitLine(l -> l.equals("# control plane stopped"), Duration.ofSeconds(30));
      assertThat(run).doesNotExist();
      assertThat(processesOf(run)).isEmpty();
      assertThat(child.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  /**
   * {@code up --profile standard} starts that profile: the option's value reaches the control plane
   * through the front door, which must not resolve the options a second time from the environment
   * (where no profile is set) and start the default one.
   */
  @Test
  void upStartsTheProfileItsOptionNames(@TempDir Path dir) throws Exception {
    try (var child =
        io.github.kubeharness.ChildJvm.start(
            java.util.Map.of(),
            java.util.List.of(),
            KubeHarnessCli.class.getName(),
            "up",
            "--backend",
            "local",
            "--profile",
            "standard",
            "--kubeconfig",
            dir.resolve("kubeconfig").toString())) {
      String ready = child.awaitLine(l -> l.contains("ready at"), Duration.ofMinutes(2));
      assertThat(ready).startsWith("# control plane (local, standard, Kubernetes v");
      child.process().toHandle().destroy();
      child.awaitLine(l -> l.equals("# control plane stopped"), Duration.ofSeconds(60));
      assertThat(child.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** {@code KUBE_HARNESS_BACKEND=container kube-harness up} starts containers, not processes. */
  @Test
  void upStartsTheBackendTheSettingNames(@TempDir Path dir) throws Exception {
    Path kubeconfig = dir.resolve("kubeconfig");
    try (var child =
        io.github.kubeharness.ChildJvm.start(
            java.util.Map.of("KUBE_HARNESS_BACKEND", "container"),
            java.util.List.of(),
            KubeHarnessCli.class.getName(),
            "up",
            "--profile",
            "minimal",
            "--kubeconfig",
            kubeconfig.toString())) {
      String ready = child.awaitLine(l -> l.contains("ready at"), Duration.ofMinutes(2));
      assertThat(ready).startsWith("# control plane (container, minimal, Kubernetes v");
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        assertThat(client.namespaces().withName("default").get()).isNotNull();
      }
      child.process().toHandle().destroy();
      child.awaitLine(l -> l.equals("# control plane stopped"), Duration.ofSeconds(60));
      assertThat(child.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void upRefusesTheExistingBackendNamingTheOthers() throws Exception {
    try (var child = io.github.kubeharness.ChildJvm.cli("up", "--backend", "existing")) {
      assertThat(child.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(child.process().exitValue()).isEqualTo(1);
      assertThat(child.readToEnd(Duration.ofSeconds(30)))
          .contains("the existing backend starts none", "--backend local|container|k3s|kind");
    }
  }

  @Test
  void upInstallsManifestsAndRunsACommandAgainstTheCluster(@TempDir Path dir) throws Exception {
    // A kubeconfig left there, readable by all (as a umask of 022 makes it): replaced, and
    // owner-only from then on.
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, "stale");
    Files.setPosixFilePermissions(kubeconfig, PosixFilePermissions.fromString("rw-r--r--"));
    Path seen = dir.resolve("seen-kubeconfig");
    String command =
        "sh -c 'echo \"$KUBECONFIG\" > " + seen + "; exec sleep 600'"; // what make dev's --run does
    try (var child =
        io.github.kubeharness.ChildJvm.cli(
            "up",
            "--profile",
            "minimal",
            "--kubeconfig",
            kubeconfig.toString(),
            "--install",
            "../harness/src/test/resources/crds",
            "--run",
            command)) {
      String logsLine = child.awaitLine(l -> l.contains("ready at"), Duration.ofMinutes(2));
      Path run = Path.of(logsLine.replaceAll(".*logs in (\\S+).*", "$1"));
      child.awaitLine(l -> l.startsWith("# running: "), Duration.ofSeconds(30));

      assertThat(permissions(kubeconfig))
          .as("the admin kubeconfig: owner only")
          .isEqualTo("rw-------");
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        assertThat(
                client
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName("widgets.test.kubeharness.io")
                    .get())
            .as("CRD installed by --install")
            .isNotNull();
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(seen).as("--run's command ran").exists();
                assertThat(Files.readString(seen).trim())
                    .as("--run's command got KUBECONFIG")
                    .isEqualTo(kubeconfig.toAbsolutePath().toString());
              });

      child.process().toHandle().destroy();
      child.awaitLine(l -> l.equals("# control plane stopped"), Duration.ofSeconds(30));
      assertThat(run).doesNotExist();
      assertThat(processesOf(run)).isEmpty();
      assertThat(
              ProcessHandle.allProcesses()
                  .filter(p -> p.info().commandLine().orElse("").contains("sleep 600")))
          .as("--run's command stopped with the control plane")
          .isEmpty();
    }
  }

  private static String permissions(Path file) throws java.io.IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
  }

  // As "pid command line": a failure names what was left behind, not just its pid.
  private static java.util.List<String> processesOf(Path run) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.isAlive() && p.info().commandLine().orElse("").contains(run.toString()))
        .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
        .toList();
  }

  @Test
  void provisionPrintsWhereTheBinariesAre() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        new KubeHarnessCli(new PrintStream(out, true, StandardCharsets.UTF_8))
            .run(new String[] {"provision", "--profile", "standard"});
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(code).isZero();
    assertThat(printed)
        .contains(
            "etcd=/",
            "kube-apiserver=/",
            "kube-controller-manager=/",
            "export KUBEBUILDER_ASSETS=");
  }

  @Test
  void envPrintsEffectiveSettings() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        new KubeHarnessCli(new PrintStream(out, true, StandardCharsets.UTF_8))
            .run(new String[] {"env", "--profile", "standard"});
    assertThat(code).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains(
            "KUBE_HARNESS_PROFILE=standard",
            "KUBE_HARNESS_KUBERNETES_VERSION=",
            "KUBE_HARNESS_CACHE_DIR=");
  }

  @Test
  void unknownCommandIsAUsageError() throws Exception {
    try (var child = io.github.kubeharness.ChildJvm.cli("frobnicate")) {
      assertThat(child.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(child.process().exitValue()).isEqualTo(2);
      assertThat(child.readToEnd(Duration.ofSeconds(30)))
          .contains("Unmatched argument at index 0: 'frobnicate'", "Usage: kube-harness");
    }
  }
}
