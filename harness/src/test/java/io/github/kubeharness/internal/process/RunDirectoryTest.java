package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RunDirectory#sweepStale}: the safety net for a JVM killed together with its watchdog.
 * Children are stand-ins for etcd: single processes whose command line names a file in their run
 * directory, as etcd's {@code --data-dir} does.
 */
class RunDirectoryTest {

  @TempDir Path tmp;

  private Path root;
  private final List<Process> started = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    // Real path: the sweep matches it against command lines, which hold what was passed.
    root = Files.createDirectories(tmp.toRealPath().resolve("kube-harness"));
  }

  @AfterEach
  void killLeftovers() throws InterruptedException {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void runOfADeadJvmIsSweptAndItsChildKilled() throws Exception {
    Path run = Files.createDirectories(root.resolve("run-" + exitedPid() + "-x"));
    Process child = startChild(run.resolve("etcd.log"));
    Files.writeString(run.resolve(RunDirectory.PIDS_FILE), child.pid() + "\n");
    assertThat(child.info().commandLine())
        .hasValueSatisfying(c -> assertThat(c).contains(run.toString()));

    assertThat(RunDirectory.sweepStale(root)).isEqualTo(1);

    assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child killed").isTrue();
    assertThat(child.exitValue()).as("128 + SIGKILL").isEqualTo(137);
    assertThat(run).doesNotExist();
  }

  @Test
  void runOfALiveJvmIsLeftAlone() throws Exception {
    Path run = Files.createDirectories(root.resolve("run-" + ProcessHandle.current().pid() + "-y"));
    Process child = startChild(run.resolve("etcd.log"));
    Files.writeString(run.resolve(RunDirectory.PIDS_FILE), child.pid() + "\n");

    assertThat(RunDirectory.sweepStale(root)).isZero();

    assertThat(child.isAlive()).isTrue();
    assertThat(run.resolve(RunDirectory.PIDS_FILE)).exists();
  }

  @Test
  void recordedPidNowOwnedByAnUnrelatedProcessIsNotSignalled() throws Exception {
    // The pid was recycled: the process behind it has nothing to do with the run directory.
    Path run = Files.createDirectories(root.resolve("run-" + exitedPid() + "-z"));
    Process unrelated = startChild(Files.createFile(tmp.resolve("unrelated.log")));
    Files.writeString(run.resolve(RunDirectory.PIDS_FILE), "not-a-pid\n" + unrelated.pid() + "\n");

    assertThat(RunDirectory.sweepStale(root)).isEqualTo(1);

    assertThat(unrelated.isAlive()).isTrue();
    assertThat(run).doesNotExist();
  }

  @Test
  void entriesThatAreNotRunDirectoriesAreKept() throws IOException {
    Path other = Files.createDirectories(root.resolve("something-else"));
    Path notAPid = Files.createDirectories(root.resolve("run-abc-x"));

    assertThat(RunDirectory.sweepStale(root)).isZero();
    assertThat(RunDirectory.sweepStale(root.resolve("missing"))).isZero();

    assertThat(other).isDirectory();
    assertThat(notAPid).isDirectory();
  }

  @Test
  void createSweepsStaleRunsAndNamesTheNewOneAfterThisJvm() throws Exception {
    Path stale = Files.createDirectories(root.resolve("run-" + exitedPid() + "-old"));

    try (RunDirectory run = RunDirectory.create(root)) {
      assertThat(stale).doesNotExist();
      assertThat(run.path().getParent()).isEqualTo(root);
      assertThat(run.path().getFileName().toString())
          .startsWith("run-" + ProcessHandle.current().pid() + "-");
      assertThat(run.subdirectory("users")).isDirectory();
    }
  }

  /** A long-running single process whose command line names {@code file}. */
  private Process startChild(Path file) throws IOException {
    if (!Files.exists(file)) {
      Files.createFile(file);
    }
    Process p =
        new ProcessBuilder("tail", "-f", file.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    started.add(p);
    return p;
  }

  /** The pid of a process that has already exited: the owner of a stale run. */
  private static long exitedPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(ProcessHandle.of(p.pid())).isEmpty();
    return p.pid();
  }
}
