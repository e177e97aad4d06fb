package io.github.kubeharness.internal.reuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.kubeharness.internal.process.ProcessIdentity;
import io.github.kubeharness.internal.process.StartedProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keeper of a kept control plane, on a state of stand-in processes: when no JVM is attached it
 * kills what the state records, but only processes that are still the ones recorded.
 */
class KeeperTest {

  @RegisterExtension final StartedProcesses processes = new StartedProcesses();

  @TempDir Path tmp;

  private Path state;

  @BeforeEach
  void setUp() throws Exception {
    // A directory of its own: the keeper empties it at the end (a lock file would stay).
    state = Files.createDirectory(tmp.resolve("state"));
  }

  @Test
  void withNoJvmAttachedItKillsOnlyTheProcessesStillAsRecorded() throws Exception {
    Process apiServer = processes.sleep();
    Process recorded = processes.sleep();
    Process reused = processes.sleep();
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

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(state).isEmptyDirectory());
    assertThat(apiServer.waitFor(30, TimeUnit.SECONDS)).as("recorded: killed").isTrue();
    assertThat(recorded.waitFor(30, TimeUnit.SECONDS)).as("recorded: killed").isTrue();
    assertThat(StartedProcesses.exitsWithinAMoment(reused))
        .as("another start time: alive")
        .isFalse();
  }

  @Test
  void anApiServerPidNowAnotherProcessCountsAsGone() throws Exception {
    Process reused = processes.sleep();
    Process recorded = processes.sleep();
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

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(state).isEmptyDirectory());
    assertThat(recorded.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(StartedProcesses.exitsWithinAMoment(reused)).as("alive").isFalse();
  }
}
