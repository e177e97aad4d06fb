package io.github.kubeharness.internal.provision;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.LogTail;
import io.github.kubeharness.internal.process.Watchdog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The local Go command as {@link SourceBuild} runs it: static builds ({@code CGO_ENABLED=0}), no
 * workspace, modules resolved as needed; its output appended to one build log, a progress line
 * every 30 s of a long step, and the process guarded by the {@link Watchdog}.
 */
final class GoCommand {

  private static final Duration HEARTBEAT = Duration.ofSeconds(30);

  private final String go;
  private final Path workRoot;
  private final Consumer<String> progress;
  private final Path log;
  // GOTOOLCHAIN for a version whose go.mod needs a newer Go than the local one; empty otherwise.
  private final Map<String, String> goEnvironment;

  /**
   * @param go the Go command: {@code go} (found on the PATH) or a path to the executable
   * @param workRoot where the build log and temporary output go
   */
  GoCommand(String go, Path workRoot, Consumer<String> progress) {
    this(go, workRoot, progress, Map.of());
  }

  private GoCommand(
      String go, Path workRoot, Consumer<String> progress, Map<String, String> goEnvironment) {
    this.go = go;
    this.workRoot = workRoot;
    this.progress = progress;
    this.log = workRoot.resolve("build.log");
    this.goEnvironment = goEnvironment;
  }

  /** This command with {@code environment} (GOTOOLCHAIN) set for every run. */
  GoCommand withEnvironment(Map<String, String> environment) {
    return new GoCommand(go, workRoot, progress, environment);
  }

  /** The Go command's path or name, the first word of a command line. */
  String go() {
    return go;
  }

  /** The build log. */
  Path log() {
    return log;
  }

  /**
   * The local Go: its version ({@code go1.26.8}) and where it fetches modules from ({@code go env
   * GOPROXY}: the environment, else {@code go env -w}, else Go's default).
   */
  record Go(String version, String proxy) {

    /**
     * Where the build's modules come from, for its progress line: kubeharness.offline does not
     * cover the Go build (it is how machines with only a module mirror get binaries), so the line
     * says what it reaches instead.
     */
    String fetching() {
      return proxy.equals("off")
          ? ", GOPROXY=off (modules from the module cache only)"
          : ", fetching modules through GOPROXY=" + proxy;
    }
  }

  /**
   * The local Go, or a failure saying {@code what} cannot be built for want of a working Go and
   * what to do {@code otherwise}.
   */
  Go requireGo(String what, String otherwise) {
    try {
      List<String> lines =
          run(workRoot, List.of(go, "env", "GOVERSION", "GOPROXY"), null).lines().toList();
      return new Go(
          lines.isEmpty() ? "" : lines.get(0).trim(),
          lines.size() < 2 || lines.get(1).isBlank() ? "(unset)" : lines.get(1).trim());
    } catch (KubeHarnessException e) {
      throw new KubeHarnessException(
          what
              + ": no working Go toolchain (`"
              + go
              + "`"
              + (go.equals("go") ? " on the PATH" : ", from KUBE_HARNESS_GO")
              + ") ("
              + e.getMessage().lines().findFirst().orElse("")
              + "). "
              + otherwise,
          e);
    }
  }

  /** Runs a Go command in {@code dir}, appending output to the build log; returns its stdout. */
  String run(Path dir, List<String> command, String step) {
    return run(dir, command, step, Map.of());
  }

  /** As {@link #run(Path, List, String)}, with {@code env} added to its environment. */
  String run(Path dir, List<String> command, String step, Map<String, String> env) {
    Instant start = Instant.now();
    if (step != null) {
      progress.accept(step + " ...");
    }
    Path stdout;
    try {
      stdout = Files.createTempFile(workRoot, "go-", ".out");
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot write into " + workRoot + ": " + e, e);
    }
    try {
      Files.writeString(
          log,
          "\n$ (cd " + dir + " && " + String.join(" ", command) + ")\n",
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectOutput(stdout.toFile())
              .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
      builder.environment().put("CGO_ENABLED", "0");
      builder.environment().put("GOFLAGS", "-mod=mod");
      builder.environment().put("GOWORK", "off");
      builder.environment().putAll(goEnvironment);
      builder.environment().putAll(env);
      Process process = builder.start();
      Watchdog.get().watch(process.pid());
      try {
        while (!process.waitFor(HEARTBEAT.toSeconds(), TimeUnit.SECONDS)) {
          if (step != null) {
            progress.accept(
                "  still "
                    + step
                    + " ("
                    + Duration.between(start, Instant.now()).toSeconds()
                    + " s)");
          }
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
        throw new KubeHarnessException("Interrupted while " + step, e);
      } finally {
        Watchdog.get().unwatch(process.pid());
      }
      String out = Files.readString(stdout);
      Files.writeString(log, out, StandardOpenOption.APPEND);
      if (process.exitValue() != 0) {
        throw new KubeHarnessException(
            "`"
                + String.join(" ", command)
                + "` failed with exit code "
                + process.exitValue()
                + " in "
                + dir
                + ".\nLast lines of "
                + log
                + ":\n"
                + LogTail.of(log)
                + "Check GOPROXY (`go env GOPROXY`) and the Go version (the module may need a newer"
                + " one: set GOTOOLCHAIN), or provide the binaries through KUBEBUILDER_ASSETS.");
      }
      return out;
    } catch (IOException e) {
      throw new KubeHarnessException(
          "Cannot run `" + String.join(" ", command) + "`: " + e.getMessage(), e);
    } finally {
      try {
        Files.deleteIfExists(stdout);
      } catch (IOException ignored) {
        // a leftover temp file in the build directory is harmless
      }
    }
  }
}
