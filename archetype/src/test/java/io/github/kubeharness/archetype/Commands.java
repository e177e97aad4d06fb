package io.github.kubeharness.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the commands a user of a generated project types (make, mvn, java -jar), as processes, their
 * output into a log file that a failed assertion quotes the end of.
 */
final class Commands {

  private Commands() {}

  /** A finished command: its exit code and its log. */
  record Finished(List<String> command, int exitCode, Path log) {

    Finished succeeded() {
      assertThat(exitCode)
          .as("%s exited %d; its output ends with:%n%s", command, exitCode, tail(log))
          .isZero();
      return this;
    }

    Finished failed() {
      assertThat(exitCode)
          .as("%s succeeded; its output ends with:%n%s", command, tail(log))
          .isNotZero();
      return this;
    }

    String output() {
      return read(log);
    }
  }

  /** Runs the command in {@code dir} to its end (20 minutes at most). */
  static Finished run(Path dir, Path log, Map<String, String> env, List<String> command)
      throws InterruptedException {
    Process process = start(dir, log, env, command);
    if (!process.waitFor(20, TimeUnit.MINUTES)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError(command + " ran 20 minutes; log: " + log);
    }
    return new Finished(command, process.exitValue(), log);
  }

  /**
   * Starts the command in a session of its own ({@code setsid}), so that {@link #interrupt} can
   * send Ctrl-C to it and its children as a terminal would (make passes no signal on).
   */
  static Process startInOwnSession(
      Path dir, Path log, Map<String, String> env, List<String> command) {
    List<String> withSession = new ArrayList<>();
    withSession.add("setsid");
    withSession.addAll(command);
    return start(dir, log, env, withSession);
  }

  /**
   * Ctrl-C to the session {@link #startInOwnSession} made, then waits for every process of it to
   * end: the command's descendants are listed before, so that one left running is seen.
   */
  static int interrupt(Process process, Duration within) throws Exception {
    List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
    all.add(process.toHandle());
    // setsid exec's the command: its pid is the session's and the process group's.
    Process kill =
        new ProcessBuilder("kill", "-INT", "--", "-" + process.pid()).inheritIO().start();
    assertThat(kill.waitFor()).as("kill -INT -%d", process.pid()).isZero();
    long deadline = System.nanoTime() + within.toNanos();
    for (ProcessHandle handle : all) {
      long left = Math.max(0, deadline - System.nanoTime());
      try {
        handle.onExit().get(left, TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        all.forEach(ProcessHandle::destroyForcibly);
        throw new AssertionError(
            "pid "
                + handle.pid()
                + " ("
                + handle.info().commandLine().orElse("?")
                + ") still runs "
                + within.toSeconds()
                + " s after Ctrl-C");
      }
    }
    return process.exitValue();
  }

  private static Process start(Path dir, Path log, Map<String, String> env, List<String> command) {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().putAll(env);
    try {
      return builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start " + command, e);
    }
  }

  static String read(Path log) {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String tail(Path log) {
    List<String> lines = read(log).lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
  }
}
