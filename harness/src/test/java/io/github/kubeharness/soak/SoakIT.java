package io.github.kubeharness.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.kubeharness.BackendChild;
import io.github.kubeharness.ChildJvm;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.DockerContainers;
import io.github.kubeharness.KillNineChild;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.launch.ControlPlanes;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The harness's own promises under repetition: control planes started and stopped over and over in
 * one JVM leave no thread, file descriptor, child process, run directory or heap behind; JVMs
 * killed with SIGKILL over and over leave no process, directory or container; JVMs starting at once
 * never clash on a port. {@code make soak} runs the full counts; {@code .ci/run} a shorter pass
 * ({@code -Dkubeharness.soak.cycles}, {@code -Dkubeharness.soak.kills}).
 */
@Tag("soak")
class SoakIT {

  private static final int CYCLES = Integer.getInteger("kubeharness.soak.cycles", 200);
  private static final int KILLS = Integer.getInteger("kubeharness.soak.kills", 20);
  private static final int CONTAINER_KILLS =
      Integer.getInteger("kubeharness.soak.container.kills", KILLS);
  private static final int WARM_UP = 5;
  private static final long HEAP_NOISE_MB = 8;

  /**
   * After the warm-up, nothing may grow: threads, open files and child processes end at most at
   * cycle 5's count, every cycle's control plane is garbage-collected (the leak check for the heap:
   * a weak reference to each), and the heap after a full GC ends within {@link #HEAP_NOISE_MB} of
   * cycle 5's. That slack is not room for a leak: two full-GC reads with nothing leaking differ by
   * a few MB (the JDK's caches of TLS sessions, HTTP connections and reflection data fill and drain
   * on their own; the last full run read 27 then 29 MB), while a leak of the control planes
   * themselves fails the weak-reference check, whatever their size.
   */
  @Test
  void startStopCyclesLeaveNothingBehind() throws Exception {
    ControlPlaneOptions options =
        ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).withAuditLog(true).build();
    Footprint baseline = null;
    List<WeakReference<ControlPlane>> stopped = new ArrayList<>();
    for (int cycle = 1; cycle <= CYCLES; cycle++) {
      ControlPlane controlPlane = ControlPlanes.local(options);
      try (controlPlane) {
        controlPlane.start();
      }
      if (cycle == WARM_UP) {
        baseline = Footprint.now(); // class loading, pools and the watchdog are settled here
      } else if (cycle > WARM_UP) {
        stopped.add(new WeakReference<>(controlPlane));
      }
    }
    // Pools grow and shrink on their own (the common fork-join pool's idle workers go after 60 s,
    // the JDK HTTP client's with their client): a leak is what is still there once they settled.
    Footprint start = baseline;
    Footprint end = Footprint.now();
    long settled = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while ((end.threads() > start.threads()
            || end.openFiles() > start.openFiles()
            || reachable(stopped) > 0)
        && System.nanoTime() < settled) {
      Thread.sleep(5_000);
      end = Footprint.now();
    }
    System.out.println("[soak] " + CYCLES + " start/stop cycles: " + baseline + " -> " + end);

    assertThat(end.children()).as("child processes").isEqualTo(baseline.children());
    assertThat(end.runDirectories()).as("run directories of this JVM").isZero();
    assertThat(end.threads())
        .as("threads: " + threadNames())
        .isLessThanOrEqualTo(baseline.threads());
    assertThat(end.openFiles()).as("open files").isLessThanOrEqualTo(baseline.openFiles());
    assertThat(reachable(stopped))
        .as("control planes of cycles %d to %d still reachable after GC", WARM_UP + 1, CYCLES)
        .isZero();
    assertThat(end.heapMb())
        .as("heap after GC, MB")
        .isLessThanOrEqualTo(baseline.heapMb() + HEAP_NOISE_MB);
  }

  private static long reachable(List<WeakReference<ControlPlane>> controlPlanes) {
    return controlPlanes.stream().filter(r -> r.get() != null).count();
  }

  @Test
  void jvmsKilledWithSigkillOverAndOverLeaveNothing() throws Exception {
    for (int kill = 1; kill <= KILLS; kill++) {
      try (ChildJvm child = ChildJvm.start(KillNineChild.class.getName(), "standard")) {
        String ready = child.awaitLine(l -> l.startsWith("READY "), Duration.ofMinutes(2));
        List<Long> pids = pids(ready);
        Path run = Path.of(field(ready, "run"));
        assertThat(pids)
            .hasSize(3)
            .allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isPresent());

        child.process().destroyForcibly();
        child.process().waitFor();

        int round = kill;
        await()
            .atMost(Duration.ofSeconds(15))
            .untilAsserted(
                () -> {
                  assertThat(pids)
                      .as("kill %d: components", round)
                      .allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isEmpty());
                  assertThat(run).as("kill %d: run directory", round).doesNotExist();
                });
      }
    }
  }

  @Test
  void jvmsHoldingAContainerControlPlaneKilledOverAndOverLeaveNoContainer() throws Exception {
    for (int kill = 1; kill <= CONTAINER_KILLS; kill++) {
      Set<String> before = DockerContainers.ids();
      try (ChildJvm child = ChildJvm.start(BackendChild.class.getName(), "container", "minimal")) {
        child.awaitLine(l -> l.startsWith("READY "), Duration.ofMinutes(2));
        Set<String> started = DockerContainers.ids();
        started.removeAll(before);
        assertThat(started).as("etcd and kube-apiserver containers").hasSize(2);

        child.process().destroyForcibly();
        child.process().waitFor();

        int round = kill;
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () ->
                    assertThat(DockerContainers.ids())
                        .as("kill %d: containers", round)
                        .doesNotContainAnyElementsOf(started));
      }
    }
  }

  @Test
  void fourJvmsStartingAtOnceNeverClashOnAPort() throws Exception {
    List<ChildJvm> children = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        children.add(ChildJvm.start(KillNineChild.class.getName(), "standard"));
      }
      Set<String> ports = new HashSet<>();
      for (ChildJvm child : children) {
        String ready = child.awaitLine(l -> l.startsWith("READY "), Duration.ofMinutes(3));
        ports.add(port(field(ready, "url")));
        ports.add(port(field(ready, "proxy")));
      }
      assertThat(ports).as("apiserver and proxy ports of 4 JVMs").hasSize(8);
    } finally {
      children.forEach(ChildJvm::close);
    }
  }

  private static List<String> threadNames() {
    return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).sorted().toList();
  }

  private static List<Long> pids(String ready) {
    return Arrays.stream(field(ready, "pids").split(",")).map(Long::parseLong).toList();
  }

  private static String field(String line, String name) {
    return line.replaceAll(".*\\b" + name + "=(\\S+).*", "$1");
  }

  private static String port(String url) {
    return url.substring(url.lastIndexOf(':') + 1);
  }

  /** What a JVM holds that a leak would grow. */
  private record Footprint(
      int threads, long openFiles, long children, long runDirectories, long heapMb) {

    static Footprint now() throws IOException {
      System.gc();
      long heap =
          ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024);
      long openFiles;
      try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
        openFiles = fds.count();
      }
      String prefix = "run-" + ProcessHandle.current().pid() + "-";
      long runs;
      try (Stream<Path> dirs = Files.list(RunDirectory.defaultRoot())) {
        runs = dirs.filter(d -> d.getFileName().toString().startsWith(prefix)).count();
      }
      return new Footprint(
          Thread.activeCount(), openFiles, ProcessHandle.current().children().count(), runs, heap);
    }

    @Override
    public String toString() {
      return threads
          + " threads, "
          + openFiles
          + " open files, "
          + children
          + " children, "
          + runDirectories
          + " run dirs, "
          + heapMb
          + " MB heap";
    }
  }
}
