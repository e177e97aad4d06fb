package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RunDirectory#sweepStale}: the safety net for a JVM killed together with its watchdog.
 * Children are stand-ins for etcd: single processes whose command line names a file in their run
 * directory, as etcd's {@code --data-dir} does.
 */
class RunDirectoryTest {

  @RegisterExtension final StartedProcesses processes = new StartedProcesses();

  @TempDir Path tmp;

  private Path root;

  @BeforeEach
  void setUp() throws IOException {
    // Real path: the sweep matches it against command lines, which hold what was passed.
    root = Files.createDirectories(tmp.toRealPath().resolve("kube-harness"));
  }

  @Test
  void runOfADeadJvmIsSweptAndItsChildKilled() throws Exception {
    Path run = Files.createDirectories(root.resolve("run-" + StartedProcesses.exitedPid() + "-x"));
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

    assertThat(StartedProcesses.exitsWithinAMoment(child)).as("alive").isFalse();
    assertThat(run.resolve(RunDirectory.PIDS_FILE)).exists();
  }

  @Test
  void recordedPidNowOwnedByAnUnrelatedProcessIsNotSignalled() throws Exception {
    // The pid was recycled: the process behind it has nothing to do with the run directory.
    Path run = Files.createDirectories(root.resolve("run-" + StartedProcesses.exitedPid() + "-z"));
    Process unrelated = startChild(Files.createFile(tmp.resolve("unrelated.log")));
    Files.writeString(run.resolve(RunDirectory.PIDS_FILE), "not-a-pid\n" + unrelated.pid() + "\n");

    assertThat(RunDirectory.sweepStale(root)).isEqualTo(1);

    assertThat(StartedProcesses.exitsWithinAMoment(unrelated)).as("alive").isFalse();
    assertThat(run).doesNotExist();
  }

  @Test
  void aRecordedProcessIsKilledOnlyWhileItsStartTimeMatches() throws Exception {
    Path run = Files.createDirectories(root.resolve("run-" + StartedProcesses.exitedPid() + "-s"));
    Process same = startChild(run.resolve("etcd.log"));
    Process reused = startChild(run.resolve("kube-apiserver.log"));
    ProcessIdentity sameNow = ProcessIdentity.of(same.pid());
    assertThat(sameNow.startTime()).as("a start time is read on this machine").isNotEmpty();
    RunDirectory.record(run, sameNow);
    // As if the recorded process had died and the kernel had given its pid to this one.
    RunDirectory.record(run, new ProcessIdentity(reused.pid(), wrongStartTime(reused.pid())));

    assertThat(RunDirectory.sweepStale(root)).isEqualTo(1);

    assertThat(same.waitFor(30, TimeUnit.SECONDS)).as("the recorded process is killed").isTrue();
    assertThat(StartedProcesses.exitsWithinAMoment(reused))
        .as("another process behind a recorded pid is not killed")
        .isFalse();
    reused.destroyForcibly();
  }

  @Test
  void aProcessOfAnotherRunWhoseNameExtendsThisOneIsNotKilled() throws Exception {
    // run-<pid>-1 is stale; run-<pid>-12 (its name extends the first) holds the live process.
    String dead = "run-" + StartedProcesses.exitedPid() + "-1";
    Path stale = Files.createDirectories(root.resolve(dead));
    Path other = Files.createDirectories(root.resolve(dead + "2"));
    Process child = startChild(other.resolve("etcd.log"));
    RunDirectory.record(stale, ProcessIdentity.of(child.pid()));
    assertThat(child.info().commandLine())
        .hasValueSatisfying(c -> assertThat(c).contains(stale.toString()));

    RunDirectory.sweepStale(root);

    assertThat(stale).doesNotExist();
    assertThat(StartedProcesses.exitsWithinAMoment(child)).as("alive").isFalse();
  }

  @Test
  void aSymbolicLinkInTheRootIsDeletedAsALinkAndNothingBehindItIsReadOrKilled() throws Exception {
    // Were the link followed, its record would name a process that passes every check.
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    Path link =
        Files.createSymbolicLink(
            root.resolve("run-" + StartedProcesses.exitedPid() + "-link"), elsewhere);
    Process child = startChild(link.resolve("etcd.log"));
    RunDirectory.record(elsewhere, ProcessIdentity.of(child.pid()));

    RunDirectory.sweepStale(root);

    assertThat(link).doesNotExist();
    assertThat(Files.isSymbolicLink(link)).isFalse();
    assertThat(elsewhere.resolve(RunDirectory.PIDS_FILE)).exists();
    assertThat(StartedProcesses.exitsWithinAMoment(child)).as("alive").isFalse();
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
    Path stale =
        Files.createDirectories(root.resolve("run-" + StartedProcesses.exitedPid() + "-old"));

    try (RunDirectory run = RunDirectory.create(root)) {
      assertThat(stale).doesNotExist();
      assertThat(run.path().getParent()).isEqualTo(root);
      assertThat(run.path().getFileName().toString())
          .startsWith("run-" + ProcessHandle.current().pid() + "-");
      assertThat(run.subdirectory("users")).isDirectory();
    }
  }

  /** A long-running single process whose command line names {@code file}, made if missing. */
  private Process startChild(Path file) throws Exception {
    if (!Files.exists(file)) {
      Files.createFile(file);
    }
    return processes.tailingOpened(file);
  }

  /** A start time that {@code pid}'s is not. */
  private static String wrongStartTime(long pid) {
    String actual = ProcessIdentity.of(pid).startTime();
    return actual.equals("1") ? "2" : "1";
  }
}
