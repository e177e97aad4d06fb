package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The watchdog's script, on a pipe of the test's own (closing it plays the JVM's death): it kills
 * the registered processes that are still the ones registered, and no other.
 */
class WatchdogTest {

  // Process.isAlive() turns false only once the JDK's reaper thread has seen the exit, so a
  // process killed a moment ago may still look alive: "not killed" means "does not exit within
  // this long".
  private static final long STAYS_ALIVE_MS = 500;

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killLeftovers() throws InterruptedException {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void atTheEndOfThePipeOnlyRegisteredProcessesWithTheirOwnStartTimeAreKilled() throws Exception {
    Process registered = sleep();
    Process reused = sleep();
    Process unregistered = sleep();
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
    assertThat(reused.waitFor(STAYS_ALIVE_MS, TimeUnit.MILLISECONDS))
        .as("another start time: alive")
        .isFalse();
    assertThat(unregistered.waitFor(STAYS_ALIVE_MS, TimeUnit.MILLISECONDS))
        .as("unwatched: alive")
        .isFalse();
  }

  private Process sleep() throws Exception {
    Process p = new ProcessBuilder("sleep", "60").start();
    started.add(p);
    return p;
  }

  private static String startOf(Process p) {
    return ProcessIdentity.of(p.pid()).startTime();
  }

  private static void send(OutputStream out, String line) throws Exception {
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
