package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.Watchdog;
import io.github.kubeharness.launch.ControlPlanes;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local control plane given broken binaries: the failure names the component, what happened, its
 * log and the fix, and nothing it started keeps running. The binaries are shell scripts in an
 * envtest-layout assets directory; the real ones are never used.
 */
class BadInputTest {

  private static final Pattern LOG_PATH = Pattern.compile("Last lines of (\\S+):");

  @TempDir Path assets;
  @TempDir Path cache;

  private Set<Long> childrenBefore;
  private ControlPlane controlPlane;

  @BeforeEach
  void recordChildren() {
    Watchdog.get(); // started on first use; it is not a leftover of the test
    childrenBefore = liveChildren();
  }

  @AfterEach
  void close() {
    if (controlPlane != null) {
      controlPlane.close();
    }
  }

  @Test
  void etcdThatExitsIsReportedWithItsExitCodeAndLog() throws IOException {
    fake("etcd", "echo 'boom: cannot bind 127.0.0.1' >&2", "exit 3");
    // Launched beside etcd to save start-up time; it must be stopped with the failed start.
    fake("kube-apiserver", "exec sleep 300");
    controlPlane = ControlPlanes.local(options(Duration.ofSeconds(60)));

    Throwable failure = catchStart();

    assertThat(failure)
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageStartingWith("etcd exited with code 3 during start")
        .hasMessageContaining("boom: cannot bind 127.0.0.1")
        .hasMessageContaining("Command: " + assets.resolve("etcd"));
    Path log = logFile(failure);
    assertThat(log.getFileName()).hasToString("etcd.log");
    assertThat(log).content().contains("boom: cannot bind 127.0.0.1");
    assertNothingLeftRunning(log.resolveSibling("pids"));

    // Closing the failed control plane removes the run directory the message pointed to.
    controlPlane.close();
    assertThat(log.getParent()).doesNotExist();
  }

  @Test
  void etcdThatNeverBecomesReadyTimesOutWithTheHintAndIsStopped() throws IOException {
    fake("etcd", "echo 'etcd: pretending to start'", "exec sleep 300");
    fake("kube-apiserver", "exit 1");
    controlPlane = ControlPlanes.local(options(Duration.ofSeconds(2)));

    Throwable failure = catchStart();

    assertThat(failure)
        .isInstanceOf(KubeHarnessException.class)
        // NB: etcd gets what is left of the 2 s once the CA is made (over a second in a cold
        // JVM), and the message states that remainder in whole seconds, so "0 s" is possible.
        .hasMessageMatching("(?s)etcd did not become ready within the start timeout .*")
        .hasMessageContaining("last check:")
        .hasMessageContaining("etcd: pretending to start")
        .hasMessageContaining("-Dkubeharness.start.timeout.seconds=N");
    Path log = logFile(failure);
    assertThat(log.getFileName()).hasToString("etcd.log");
    assertNothingLeftRunning(log.resolveSibling("pids"));
    assertThat(controlPlane.isRunning()).isFalse();
  }

  private Throwable catchStart() {
    Throwable failure = catchThrowable(controlPlane::start);
    assertThat(failure).as("start() of a control plane with a broken etcd").isNotNull();
    return failure;
  }

  private ControlPlaneOptions options(Duration startTimeout) {
    return ControlPlaneOptions.builder()
        .withProfile(Profile.MINIMAL)
        .withAssetsDirectory(assets)
        .withCacheDirectory(cache)
        .withOffline(true)
        .withReleaseIndex(URI.create("http://127.0.0.1:9/envtest-releases.yaml"))
        .withStartTimeout(startTimeout)
        .withProgress(line -> {})
        .build();
  }

  private void fake(String name, String... lines) throws IOException {
    Path script =
        Files.writeString(assets.resolve(name), "#!/bin/sh\n" + String.join("\n", lines) + "\n");
    assertThat(script.toFile().setExecutable(true)).isTrue();
  }

  /** The log file the message points to; it exists, so the user can open it. */
  private static Path logFile(Throwable failure) {
    Matcher m = LOG_PATH.matcher(failure.getMessage());
    assertThat(m.find()).as("log path in: %s", failure.getMessage()).isTrue();
    Path log = Path.of(m.group(1));
    assertThat(log).isRegularFile();
    return log;
  }

  /** Every pid the run recorded is gone, and this JVM has no child it did not have before. */
  private void assertNothingLeftRunning(Path pidsFile) throws IOException {
    List<Long> recorded = RunDirectory.recordedPids(pidsFile.getParent());
    assertThat(recorded).isNotEmpty();
    assertThat(recorded)
        .allSatisfy(
            pid ->
                assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
                    .as("process %d", pid)
                    .isEmpty());
    assertThat(liveChildren()).isSubsetOf(childrenBefore);
  }

  private static Set<Long> liveChildren() {
    return ProcessHandle.current()
        .children()
        .filter(ProcessHandle::isAlive)
        .map(ProcessHandle::pid)
        .collect(Collectors.toSet());
  }
}
