package io.github.kubeharness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Starts a JVM on this test classpath and reads its output line by line. */
public final class ChildJvm implements AutoCloseable {

  private final Process process;
  private final BufferedReader stdout;
  private final List<String> lines = new ArrayList<>();

  private ChildJvm(Process process) {
    this.process = process;
    this.stdout =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  public static ChildJvm start(String mainClass, String... args) throws IOException {
    return start(java.util.Map.of(), List.of(), mainClass, args);
  }

  /**
   * With extra environment variables (a null value removes one this JVM has) and JVM options (e.g.
   * {@code -Dkubeharness.profile=...}).
   */
  public static ChildJvm start(
      java.util.Map<String, String> environment,
      List<String> jvmOptions,
      String mainClass,
      String... args)
      throws IOException {
    return start(List.of(), environment, jvmOptions, mainClass, args);
  }

  /**
   * In a session and process group of its own ({@code setsid}; the pid stays the JVM's), so that a
   * test can signal its whole group as a terminal's Ctrl-C does, without signalling itself.
   */
  public static ChildJvm startInOwnProcessGroup(String mainClass, String... args)
      throws IOException {
    return start(List.of("setsid"), java.util.Map.of(), List.of(), mainClass, args);
  }

  private static ChildJvm start(
      List<String> prefix,
      java.util.Map<String, String> environment,
      List<String> jvmOptions,
      String mainClass,
      String... args)
      throws IOException {
    List<String> command = new ArrayList<>(prefix);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.addAll(jvmOptions);
    command.add(mainClass);
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    environment.forEach(
        (name, value) -> {
          if (value == null) {
            builder.environment().remove(name);
          } else {
            builder.environment().put(name, value);
          }
        });
    return new ChildJvm(builder.start());
  }

  /** Reads output until a line matches; fails with everything read when the child exits first. */
  public String awaitLine(Predicate<String> match, Duration timeout) throws Exception {
    CompletableFuture<String> found =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                for (String line; (line = stdout.readLine()) != null; ) {
                  synchronized (lines) {
                    lines.add(line);
                  }
                  if (match.test(line)) {
                    return line;
                  }
                }
                return null;
              } catch (IOException e) {
                return null;
              }
            });
    String line = found.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (line == null) {
      synchronized (lines) {
        throw new AssertionError(
            "child ended without the expected line; output:\n" + String.join("\n", lines));
      }
    }
    return line;
  }

  /**
   * Starts the kube-harness CLI with these arguments (the CLI module's tests: it is on their class
   * path).
   */
  public static ChildJvm cli(String... args) throws IOException {
    return start("io.github.kubeharness.cli.KubeHarnessCli", args);
  }

  public Process process() {
    return process;
  }

  /** Everything printed until the child closes its output. */
  public String readToEnd(Duration timeout) throws Exception {
    try {
      awaitLine(line -> false, timeout);
    } catch (AssertionError endOfOutput) {
      // expected: the child ended
    }
    synchronized (lines) {
      return String.join("\n", lines);
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
