package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The watchdog's script, on a pipe of the test's own (closing it plays the JVM's death): it kills
 * the registered processes that are still the ones registered, and no other.
 */
class WatchdogTest {

  @RegisterExtension final StartedProcesses processes = new StartedProcesses();

  @Test
  void atTheEndOfThePipeOnlyRegisteredProcessesWithTheirOwnStartTimeAreKilled() throws Exception {
    Process registered = processes.sleep();
    Process reused = processes.sleep();
    Process unregistered = processes.sleep();
    Process watchdog = new ProcessBuilder("/bin/sh", "-c", Watchdog.SCRIPT).start();

    try (OutputStream commands = watchdog.getOutputStream()) {
      send(commands, "+" + registered.pid() + ":" + startOf(registered));
      // Registered with another start time: its pid was given to this process since.
      send(commands, "+" + reused.pid() + ":" + startOf(reused) + "0");
      send(commands, "+" + unregistered.pid() + ":" + startOf(unregistered));
      send(commands, "-" + unregistered.pid());
    }
    assertThat(watchdog.waitFor(30, TimeUnit.SECONDS)).as("the watchdog is done").isTrue();

    assertThat(registered.waitFor(30, TimeUnit.SECONDS)).as("registered: killed").isTrue();
    assertThat(StartedProcesses.exitsWithinAMoment(reused))
        .as("another start time: alive")
        .isFalse();
    assertThat(StartedProcesses.exitsWithinAMoment(unregistered)).as("unwatched: alive").isFalse();
  }

  private static String startOf(Process p) {
    return ProcessIdentity.of(p.pid()).startTime();
  }

  private static void send(OutputStream out, String line) throws Exception {
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
