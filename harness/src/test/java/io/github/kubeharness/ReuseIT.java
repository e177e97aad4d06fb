package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.reuse.KeptControlPlane;
import io.github.kubeharness.launch.ControlPlanes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code kubeharness.reuse}: a control plane outlives the JVM that started it, the next JVM
 * attaches to it, JVMs starting together share one, other settings never attach, a state whose
 * keeper is gone is cleared, idle and {@code down} stop it, and what it keeps on disk is
 * owner-only. Child JVMs play the runs. (The keeper's decision when a JVM comes as it stops:
 * KeeperDecisionIT; {@code kube-harness up --reuse} and {@code down}: the CLI module's UpReuseIT.)
 */
class ReuseIT {

  private static final Pattern KEPT = Pattern.compile("KEPT url=(\\S+) run=(\\S+) ms=(\\d+)");
  static final Duration CHILD = Duration.ofSeconds(120);

  private final Path cache = ControlPlaneOptions.builder().build().cacheDirectory();

  @AfterEach
  void stopKept() {
    KeptControlPlane.stopAll(cache);
  }

  @Test
  void theNextJvmAttachesToTheControlPlaneTheFirstLeftRunning() throws Exception {
    Matcher first = runChild("600");
    Path run = Path.of(first.group(2));
    List<Long> pids = RunDirectory.recordedPids(run);
    assertThat(pids).isNotEmpty().allMatch(pid -> ProcessHandle.of(pid).isPresent());

    Matcher second = runChild("600");
    assertThat(second.group(1)).isEqualTo(first.group(1));
    assertThat(second.group(2)).isEqualTo(first.group(2));

    // This JVM attaches too, and the cluster keeps what the first run made.
    try (ControlPlane attached = ControlPlanes.local(reuse().build())) {
      attached.start();
      assertThat(attached.apiServerUrl()).isEqualTo(first.group(1));
      assertThat(attached.auditLogFile()).isPresent();
      try (KubernetesClient client = attached.newClient()) {
        assertThat(client.namespaces().withName("default").get()).isNotNull();
      }
      assertThatThrownBy(attached::faults)
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("kubeharness.reuse");
    }
    assertThat(pids).allMatch(pid -> ProcessHandle.of(pid).isPresent());
  }

  @Test
  void keptFilesAreOwnerOnly() throws Exception {
    Path run = Path.of(runChild("600").group(2));
    Path kept = run.getParent();
    for (Path file :
        List.of(
            kept.resolve("state.properties"),
            kept.resolve("lock"),
            run.resolve("kept-ca").resolve("ca.key"),
            run.resolve("kubeconfig"))) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .as(file.toString())
          .isEqualTo("rw-------");
    }
    for (Path dir : List.of(kept.getParent(), kept, run, run.resolve("kept-ca"))) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
          .as(dir.toString())
          .isEqualTo("rwx------");
    }
  }

  /**
   * A kept control plane outlives its JVM, so it is locked down as a running one: its processes
   * listen on loopback only, its etcd answers only the run's etcd certificate, and the second local
   * user can neither read its state and keys (what attaching takes), nor ask its API server
   * anything, nor keep it alive or stop it.
   */
  @Test
  void aKeptControlPlaneIsLockedDownToo() throws Exception {
    Matcher kept = runChild("600");
    Path run = Path.of(kept.group(2));
    Path state = run.getParent();
    Map<String, Long> processes = new java.util.TreeMap<>();
    for (long pid : RunDirectory.recordedPids(run)) {
      ProcessHandle.of(pid)
          .flatMap(p -> p.info().command())
          .ifPresent(command -> processes.put(Path.of(command).getFileName().toString(), pid));
    }
    assertThat(processes).containsKeys("etcd", "kube-apiserver");
    for (Map.Entry<String, Long> process : processes.entrySet()) {
      Lockdown.assertListensOnLoopbackOnly(process.getKey(), process.getValue());
    }
    try (ControlPlane attached = ControlPlanes.local(reuse().build())) {
      attached.start();
      String intruder = attached.addUser("etcd-intruder", List.of()).kubeconfig();
      for (int port : Lockdown.listeningPorts(processes.get("etcd"))) {
        Lockdown.assertEtcdRefusesStrangers(EtcdAccess.of(processes.get("etcd")), port, intruder);
      }
      Lockdown.assertEtcdSocketClosedToStrangers(run.resolve("etcd.sock"));
    }
    Lockdown.assertApiServerRefusesTheStranger(kept.group(1));
    Lockdown.assertStrangerReadsNothingIn(state);
    Stranger.Result meddle =
        Stranger.run(
            "touch '"
                + state
                + "/stop' ; mkdir -p '"
                + state
                + "/clients' ; touch '"
                + state
                + "/clients/1' ; ls '"
                + state
                + "'");
    assertThat(state.resolve("stop")).as(meddle.output()).doesNotExist();
    assertThat(state.resolve("clients").resolve("1")).doesNotExist();
  }

  @Test
  void jvmsStartingTogetherShareOneControlPlane() throws Exception {
    CompletableFuture<Matcher> a = CompletableFuture.supplyAsync(() -> runChildUnchecked("600"));
    CompletableFuture<Matcher> b = CompletableFuture.supplyAsync(() -> runChildUnchecked("600"));
    assertThat(a.get().group(1)).isEqualTo(b.get().group(1));
  }

  /**
   * The key covers every setting that makes two control planes differ (README: the version, the
   * profile, the binaries, extra apiserver flags, the audit log, the simulation settings): a JVM
   * asking for any other value starts one of its own.
   */
  @Test
  void aControlPlaneOfOtherSettingsIsNeverAttached() throws Exception {
    String kept = runChild("600").group(1);
    Map<String, ControlPlaneOptions> others =
        Map.of(
            "extra apiserver flag", reuse().withExtraApiServerFlag("--event-ttl=2h").build(),
            "profile", reuse().withProfile(Profile.STANDARD).build(),
            "audit log", reuse().withAuditLog(false).build(),
            "simulated nodes", reuse(BackendOptions.local().withSimulatedNodes(2)).build(),
            "pod start delay",
                reuse(BackendOptions.local().withPodStartDelay(Duration.ofSeconds(2))).build());
    ControlPlaneOptions same = reuse().build();
    assertThat(same.profile()).as("the child's profile").isNotEqualTo(Profile.STANDARD);
    for (Map.Entry<String, ControlPlaneOptions> other : others.entrySet()) {
      try (ControlPlane controlPlane = ControlPlanes.local(other.getValue())) {
        controlPlane.start();
        assertThat(controlPlane.apiServerUrl()).as("another " + other.getKey()).isNotEqualTo(kept);
      }
    }
    try (ControlPlane controlPlane = ControlPlanes.local(same)) {
      controlPlane.start();
      assertThat(controlPlane.apiServerUrl()).as("the same settings").isEqualTo(kept);
    }
  }

  /**
   * An attach checks that the keeper lives: a state whose keeper is gone (nobody would stop its
   * processes) is cleared — its processes killed, its directory deleted — and a fresh control plane
   * started and kept.
   */
  @Test
  void aStateWhoseKeeperIsGoneIsClearedAndAFreshOneStarted() throws Exception {
    Matcher first = runChild("600");
    Path run = Path.of(first.group(2));
    List<Long> pids = RunDirectory.recordedPids(run);
    ProcessHandle keeper = ProcessHandle.of(keeperPid(run.getParent())).orElseThrow();
    keeper.destroyForcibly();
    keeper.onExit().get(30, TimeUnit.SECONDS);
    assertThat(pids)
        .as("its processes, orphaned")
        .allMatch(pid -> ProcessHandle.of(pid).isPresent());

    Matcher second = runChild("600");

    assertThat(second.group(2)).as("a fresh run").isNotEqualTo(first.group(2));
    assertThat(pids)
        .as("the old run's processes")
        .noneMatch(pid -> ProcessHandle.of(pid).isPresent());
    assertThat(run).as("the old run").doesNotExist();
    assertThat(keeperPid(Path.of(second.group(2)).getParent()))
        .as("the fresh one is kept")
        .matches(pid -> ProcessHandle.of(pid).isPresent());
  }

  private static long keeperPid(Path kept) throws java.io.IOException {
    java.util.Properties state = new java.util.Properties();
    try (var in = Files.newBufferedReader(kept.resolve("state.properties"))) {
      state.load(in);
    }
    return Long.parseLong(state.getProperty("keeperPid").split(" ")[0]);
  }

  @Test
  void itStopsAfterTheIdleTimeoutWithNoJvmAttached() throws Exception {
    Path run = Path.of(runChild("2").group(2));
    List<Long> pids = RunDirectory.recordedPids(run);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(pids).noneMatch(pid -> ProcessHandle.of(pid).isPresent());
              assertThat(run).doesNotExist();
              assertThat(run.getParent()).isDirectoryNotContaining("glob:**/state.properties");
            });
  }

  @Test
  void aKilledJvmHoldsItNoLonger() throws Exception {
    try (ChildJvm child = ChildJvm.start(ReuseChild.class.getName(), "2", "wait")) {
      Matcher kept = KEPT.matcher(child.awaitLine(l -> l.startsWith("KEPT "), CHILD));
      assertThat(kept.find()).isTrue();
      List<Long> pids = RunDirectory.recordedPids(Path.of(kept.group(2)));
      Thread.sleep(4000); // longer than the idle timeout: the live JVM holds it
      assertThat(pids).allMatch(pid -> ProcessHandle.of(pid).isPresent());

      child.process().destroyForcibly().waitFor();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> assertThat(pids).noneMatch(pid -> ProcessHandle.of(pid).isPresent()));
    }
  }

  @Test
  void aKillOfTheBuildsProcessGroupLeavesTheKeptControlPlaneRunning() throws Exception {
    List<Long> pids;
    String url;
    try (ChildJvm child =
        ChildJvm.startInOwnProcessGroup(ReuseChild.class.getName(), "600", "wait")) {
      Matcher kept = KEPT.matcher(child.awaitLine(l -> l.startsWith("KEPT "), CHILD));
      assertThat(kept.find()).isTrue();
      url = kept.group(1);
      pids = RunDirectory.recordedPids(Path.of(kept.group(2)));
      // What a build tool's kill does, and a terminal's Ctrl-C with SIGINT: a signal to every
      // process of the group. SIGTERM, as a JVM started from a background shell (CI) ignores
      // SIGINT.
      Process ctrlC =
          new ProcessBuilder("kill", "-TERM", "--", "-" + child.process().pid())
              .inheritIO()
              .start();
      assertThat(ctrlC.waitFor()).isZero();
      assertThat(child.process().waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }
    assertThat(pids).isNotEmpty().allMatch(pid -> ProcessHandle.of(pid).isPresent());
    assertThat(runChild("600").group(1)).as("the next JVM attaches").isEqualTo(url);
  }

  private static ControlPlaneOptions.Builder reuse() {
    return reuse(BackendOptions.local());
  }

  private static ControlPlaneOptions.Builder reuse(BackendOptions.Local local) {
    return ControlPlaneOptions.builder()
        .withBackend(local.withReuseIdleTimeout(Duration.ofMinutes(10)))
        .withAuditLog(true)
        .withReuse(true);
  }

  /**
   * A child JVM's attach (ReuseChild): its line's url and run directory. The CLI's tests use it.
   */
  static Matcher runChild(String idleSeconds) throws Exception {
    try (ChildJvm child = ChildJvm.start(ReuseChild.class.getName(), idleSeconds)) {
      String line = child.awaitLine(l -> l.startsWith("KEPT "), CHILD);
      assertThat(child.process().waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      Matcher matcher = KEPT.matcher(line);
      assertThat(matcher.find()).as(line).isTrue();
      return matcher;
    }
  }

  private static Matcher runChildUnchecked(String idleSeconds) {
    try {
      return runChild(idleSeconds);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
