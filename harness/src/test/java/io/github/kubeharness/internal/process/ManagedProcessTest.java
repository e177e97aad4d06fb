package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** stop(): SIGTERM first, SIGKILL only for a process still alive after the 5 s grace. */
class ManagedProcessTest {

  @Test
  void aProcessThatHonoursSigtermStopsOnIt(@TempDir Path dir) throws Exception {
    Path got = dir.resolve("got");
    ManagedProcess process =
        start(dir, "trap 'echo TERM > " + got + "; exit 0' TERM; while :; do sleep 0.05; done");

    process.stop();

    assertThat(process.isAlive()).isFalse();
    assertThat(Files.readString(got).trim()).isEqualTo("TERM");
  }

  @Test
  void aProcessThatIgnoresSigtermIsKilledAfterTheGrace(@TempDir Path dir) throws Exception {
    Path got = dir.resolve("got");
    ManagedProcess process =
        start(dir, "trap 'echo TERM > " + got + "' TERM; while :; do sleep 0.05; done");

    long started = System.nanoTime();
    process.stop();
    long tookMillis = (System.nanoTime() - started) / 1_000_000;

    assertThat(process.isAlive()).isFalse();
    assertThat(Files.readString(got).trim()).as("SIGTERM came first").isEqualTo("TERM");
    // The grace is behaviour (a process gets 5 s to shut down cleanly), not a performance figure.
    assertThat(tookMillis).isGreaterThanOrEqualTo(4_900);
  }

  private static ManagedProcess start(Path dir, String script) throws Exception {
    Path ready = dir.resolve("ready");
    ManagedProcess process =
        new ManagedProcess(
            "test-process",
            List.of("/bin/sh", "-c", script.replace("while", "touch " + ready + "; while")),
            dir.resolve("log"),
            Map.of());
    process.launch();
    // The trap must be installed before the test signals.
    for (int i = 0; i < 200 && !Files.exists(ready); i++) {
      Thread.sleep(10);
    }
    assertThat(ready).exists();
    return process;
  }
}
