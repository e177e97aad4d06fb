package io.github.kubeharness.internal.reuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.kubeharness.internal.process.ProcessIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keeper of a kept control plane, on a state of stand-in processes: when no JVM is attached it
 * kills what the state records, but only processes that are still the ones recorded.
 */
class KeeperTest {

  // Process.isAlive() turns false only once the JDK's reaper thread has seen the exit, so a
  // process killed a moment ago may still look alive: "not killed" means "does not exit within
  // this long".
  private static final long STAYS_ALIVE_MS = 500;

  @TempDir Path tmp;

  private Path state;
  private final List<Process> started = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    // A directory of its own: the keeper deletes it at the end.
    state = Files.createDirectory(tmp.resolve("state"));
  }

  @AfterEach
  void killLeftovers() throws InterruptedException {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void withNoJvmAttachedItKillsOnlyTheProcessesStillAsRecorded() throws Exception {
    Process apiServer = sleep();
    Process recorded = sleep();
    Process reused = sleep();
    ProcessIdentity stale = ProcessIdentity.of(reused.pid());
    Files.writeString(
        state.resolve("state.properties"),
        "apiServerPid="
            + ProcessIdentity.of(apiServer.pid()).format()
            + "\npids="
            + ProcessIdentity.of(apiServer.pid()).format()
            + ","
            + ProcessIdentity.of(recorded.pid()).format()
            + ","
            // As if the recorded process had died and its pid been given to another since.
            + new ProcessIdentity(stale.pid(), stale.startTime() + "0").format()
            + "\n");

    Keeper.start(state, Duration.ofSeconds(1));

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(state).doesNotExist());
    assertThat(apiServer.waitFor(30, TimeUnit.SECONDS)).as("recorded: killed").isTrue();
    assertThat(recorded.waitFor(30, TimeUnit.SECONDS)).as("recorded: killed").isTrue();
    assertThat(reused.waitFor(STAYS_ALIVE_MS, TimeUnit.MILLISECONDS))
        .as("another start time: alive")
        .isFalse();
  }

  @Test
  void anApiServerPidNowAnotherProcessCountsAsGone() throws Exception {
    Process reused = sleep();
    Process recorded = sleep();
    ProcessIdentity stale = ProcessIdentity.of(reused.pid());
    Path clients = Files.createDirectories(state.resolve("clients"));
    // This JVM is attached: only the apiserver's end may stop the keeper.
    Files.createFile(clients.resolve(Long.toString(ProcessHandle.current().pid())));
    Files.writeString(
        state.resolve("state.properties"),
        "apiServerPid="
            + new ProcessIdentity(stale.pid(), stale.startTime() + "0").format()
            + "\npids="
            + ProcessIdentity.of(recorded.pid()).format()
            + "\n");

    Keeper.start(state, Duration.ofSeconds(600));

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(state).doesNotExist());
    assertThat(recorded.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(reused.waitFor(STAYS_ALIVE_MS, TimeUnit.MILLISECONDS)).as("alive").isFalse();
  }

  private Process sleep() throws Exception {
    Process p = new ProcessBuilder("sleep", "60").start();
    started.add(p);
    return p;
  }
}
