package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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

  // Process.isAlive() turns false only once the JDK's reaper thread has seen the exit, so a
  // process killed a moment ago may still look alive: "not killed" means "does not exit within
  // this long".
  private static final long STAYS_ALIVE_MS = 500;

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

    assertThat(child.waitFor(STAYS_ALIVE_MS, TimeUnit.MILLISECONDS)).as("alive").isFalse();
    assertThat(run.resolve(RunDirectory.PIDS_FILE)).exists();
  }

  @Test
  void recordedPidNowOwnedByAnUnrelatedProcessIsNotSignalled() throws Exception {
    // The pid was recycled: the process behind it has nothing to do with the run directory.
    Path run = Files.createDirectories(root.resolve("run-" + exitedPid() + "-z"));
    Process unrelated = startChild(Files.createFile(tmp.resolve("unrelated.log")));
    Files.writeString(run.resolve(RunDirectory.PIDS_FILE), "not-a-pid\n" + unrelated.pid() + "\n");

    assertThat(RunDirectory.sweepStale(root)).isEqualTo(1);

    assertThat(unrelated.waitFor(STAYS_ALIVE_MS, TimeUnit.MILLISECONDS)).as("alive").isFalse();
    assertThat(run).doesNotExist();
  }

  @Test
  void aRecordedProcessIsKilledOnlyWhileItsStartTimeMatches() throws Exception {
    Path run = Files.createDirectories(root.resolve("run-" + exitedPid() + "-s"));
    Process same = startChild(run.resolve("etcd.log"));
    Process reused = startChild(run.resolve("kube-apiserver.log"));
    ProcessIdentity sameNow = ProcessIdentity.of(same.pid());
    assertThat(sameNow.startTime()).as("a start time is read on this machine").isNotEmpty();
    RunDirectory.record(run, sameNow);
    // As if the recorded process had died and the kernel had given its pid to this one.
    RunDirectory.record(run, new ProcessIdentity(reused.pid(), wrongStartTime(reused.pid())));

    assertThat(RunDirectory.sweepStale(root)).isEqualTo(1);

    assertThat(same.waitFor(30, TimeUnit.SECONDS)).as("the recorded process is killed").isTrue();
    assertThat(reused.waitFor(STAYS_ALIVE_MS, TimeUnit.MILLISECONDS))
        .as("another process behind a recorded pid is not killed")
        .isFalse();
    reused.destroyForcibly();
  }

  @Test
  void aProcessOfAnotherRunWhoseNameExtendsThisOneIsNotKilled() throws Exception {
    // run-<pid>-1 is stale; run-<pid>-12 (its name extends the first) holds the live process.
    String dead = "run-" + exitedPid() + "-1";
    Path stale = Files.createDirectories(root.resolve(dead));
    Path other = Files.createDirectories(root.resolve(dead + "2"));
    Process child = startChild(other.resolve("etcd.log"));
    RunDirectory.record(stale, ProcessIdentity.of(child.pid()));
    assertThat(child.info().commandLine())
        .hasValueSatisfying(c -> assertThat(c).contains(stale.toString()));

    RunDirectory.sweepStale(root);

    assertThat(stale).doesNotExist();
    assertThat(child.waitFor(STAYS_ALIVE_MS, TimeUnit.MILLISECONDS)).as("alive").isFalse();
  }

  @Test
  void aSymbolicLinkInTheRootIsDeletedAsALinkAndNothingBehindItIsReadOrKilled() throws Exception {
    // Were the link followed, its record would name a process that passes every check.
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    Path link = Files.createSymbolicLink(root.resolve("run-" + exitedPid() + "-link"), elsewhere);
    Process child = startChild(link.resolve("etcd.log"));
    RunDirectory.record(elsewhere, ProcessIdentity.of(child.pid()));

    RunDirectory.sweepStale(root);

    assertThat(link).doesNotExist();
    assertThat(Files.isSymbolicLink(link)).isFalse();
    assertThat(elsewhere.resolve(RunDirectory.PIDS_FILE)).exists();
    assertThat(child.waitFor(STAYS_ALIVE_MS, TimeUnit.MILLISECONDS)).as("alive").isFalse();
  }

  @Test
  void deleteRecursivelyDeletesLinksWithoutFollowingThem() throws IOException {
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    Path precious = Files.writeString(elsewhere.resolve("precious"), "keep me");
    Path tree = Files.createDirectories(root.resolve("tree").resolve("sub"));
    Files.createSymbolicLink(tree.resolve("to-dir"), elsewhere);
    Files.createSymbolicLink(tree.resolve("to-file"), precious);
    Path topLink = Files.createSymbolicLink(root.resolve("top-link"), elsewhere);
    Path dangling = Files.createSymbolicLink(root.resolve("dangling"), tmp.resolve("missing"));

    RunDirectory.deleteRecursively(root.resolve("tree"));
    RunDirectory.deleteRecursively(topLink);
    RunDirectory.deleteRecursively(dangling);

    assertThat(root.resolve("tree")).doesNotExist();
    assertThat(Files.exists(topLink, LinkOption.NOFOLLOW_LINKS)).isFalse();
    assertThat(Files.exists(dangling, LinkOption.NOFOLLOW_LINKS)).isFalse();
    assertThat(precious).hasContent("keep me");
    assertThat(elsewhere).isDirectory();
  }

  @Test
  void recordsReadBackWithTheirStartTimesAndOldBarePidsStillRead() throws IOException {
    Path run = Files.createDirectories(root.resolve("run-1-r"));
    Files.writeString(
        run.resolve(RunDirectory.PIDS_FILE), "12 3456\n78\nnot-a-pid\n9 x\n10 11 12\n");

    assertThat(RunDirectory.recordedProcesses(run))
        .containsExactly(new ProcessIdentity(12, "3456"), new ProcessIdentity(78, ""));
    assertThat(RunDirectory.recordedPids(run)).containsExactly(12L, 78L);
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
  private Process startChild(Path file) throws Exception {
    if (!Files.exists(file)) {
      Files.createFile(file);
    }
    Process p =
        new ProcessBuilder("tail", "-f", file.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    started.add(p);
    awaitOpened(p, file);
    return p;
  }

  // Until tail has the file open: a sweep that deletes it sooner would make tail give up and
  // exit, which would look like a kill.
  private static void awaitOpened(Process p, Path file) throws Exception {
    Path target = file.toRealPath();
    Path fds = Path.of("/proc", Long.toString(p.pid()), "fd");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      try (Stream<Path> open = Files.list(fds)) {
        if (open.anyMatch(fd -> target.equals(linkTarget(fd)))) {
          return;
        }
      } catch (IOException e) {
        // not there yet
      }
      Thread.sleep(10);
    }
    throw new AssertionError(p.info().commandLine().orElse("tail") + " did not open " + file);
  }

  private static Path linkTarget(Path fd) {
    try {
      return Files.readSymbolicLink(fd);
    } catch (IOException e) {
      return null;
    }
  }

  /** A start time that {@code pid}'s is not. */
  private static String wrongStartTime(long pid) {
    String actual = ProcessIdentity.of(pid).startTime();
    return actual.equals("1") ? "2" : "1";
  }

  /** The pid of a process that has already exited: the owner of a stale run. */
  private static long exitedPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(ProcessHandle.of(p.pid())).isEmpty();
    return p.pid();
  }
}
