package io.github.kubeharness.internal.backend;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.Watchdog;
import io.github.kubeharness.internal.provision.GoTools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code kind} and {@code docker} commands as the kind backend uses them: kind from the PATH,
 * else built from its Go module ({@value #KIND_MODULE} {@value #KIND_VERSION}) into the cache.
 */
final class KindCli {

  static final String KIND_MODULE = "sigs.k8s.io/kind";
  static final String KIND_VERSION = "v0.33.0";

  private final String kind;

  // Package-private for KindCliTest, which runs a stand-in kind.
  KindCli(String kind) {
    this.kind = kind;
  }

  /** kind on the PATH, else the one built into the cache (building it the first time). */
  static KindCli find(ControlPlaneOptions options) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, "kind");
      if (Files.isExecutable(candidate)) {
        return new KindCli(candidate.toString());
      }
    }
    return new KindCli(GoTools.installed(options, KIND_MODULE, KIND_VERSION).toString());
  }

  /** The names of the kind clusters on this Docker engine. */
  List<String> clusters() {
    return run(List.of(kind, "get", "clusters"), Map.of(), Duration.ofSeconds(30))
        .output()
        .lines()
        .filter(line -> !line.isBlank() && !line.startsWith("No kind clusters"))
        .toList();
  }

  /** {@code kind create cluster}; the node is retained on failure, for its logs. */
  Result create(
      String name, String image, Path config, Path kubeconfig, String network, Duration wait) {
    return run(
        List.of(
            kind,
            "create",
            "cluster",
            "--name",
            name,
            "--image",
            image,
            "--config",
            config.toString(),
            "--kubeconfig",
            kubeconfig.toString(),
            "--retain",
            "--wait",
            wait.toSeconds() + "s"),
        Map.of("KIND_EXPERIMENTAL_DOCKER_NETWORK", network),
        wait.plusMinutes(3));
  }

  /** The admin kubeconfig of cluster {@code name} (API server on 127.0.0.1). */
  String kubeconfig(String name) {
    return require(
            run(
                List.of(kind, "get", "kubeconfig", "--name", name),
                Map.of(),
                Duration.ofSeconds(30)),
            "kind get kubeconfig --name " + name)
        .output();
  }

  void delete(String name) {
    require(
        run(List.of(kind, "delete", "cluster", "--name", name), Map.of(), Duration.ofMinutes(2)),
        "kind delete cluster --name " + name);
  }

  void loadImages(String name, List<String> images) {
    List<String> command = new ArrayList<>(List.of(kind, "load", "docker-image", "--name", name));
    command.addAll(images);
    Result result = run(command, Map.of(), Duration.ofMinutes(10));
    if (!result.succeeded()) {
      throw new KubeHarnessException(
          "Loading "
              + String.join(", ", images)
              + " into kind cluster "
              + name
              + " failed: "
              + result.output().strip()
              + "\nEach image must exist in the local Docker (docker images; build it first, e.g."
              + " make docker-build IMG=...).");
    }
  }

  /** A {@code docker} command; its output whatever the outcome. */
  static Result docker(List<String> arguments, Duration timeout) {
    List<String> command = new ArrayList<>(List.of("docker"));
    command.addAll(arguments);
    return run(command, Map.of(), timeout);
  }

  /** A finished command: exit code and combined output. */
  record Result(String command, int exitCode, String output) {
    boolean succeeded() {
      return exitCode == 0;
    }
  }

  private static Result require(Result result, String what) {
    if (!result.succeeded()) {
      throw new KubeHarnessException(
          "`" + what + "` failed (exit " + result.exitCode() + "): " + result.output().strip());
    }
    return result;
  }

  // The output is read through a pipe, never through a file: `kind get kubeconfig` prints the
  // admin key, and a temporary file of it would outlive a kill -9 of this JVM.
  private static Result run(List<String> command, Map<String, String> env, Duration timeout) {
    try {
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().putAll(env);
      Process process = builder.start();
      process.getOutputStream().close();
      Watchdog.get().watch(process.pid());
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      Thread reader =
          new Thread(() -> copy(process.getInputStream(), output), "kind-output-" + process.pid());
      reader.setDaemon(true);
      reader.start();
      try {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly();
          throw new KubeHarnessException(
              "`"
                  + String.join(" ", command)
                  + "` did not finish within "
                  + timeout.toSeconds()
                  + " s. Its output:\n"
                  + textOf(output, reader));
        }
      } finally {
        Watchdog.get().unwatch(process.pid());
      }
      return new Result(String.join(" ", command), process.exitValue(), textOf(output, reader));
    } catch (IOException e) {
      throw new KubeHarnessException(
          "Cannot run `"
              + String.join(" ", command)
              + "`: "
              + e.getMessage()
              + ". The kind backend needs the docker command and a Docker engine.",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubeHarnessException("Interrupted while running " + command, e);
    }
  }

  private static void copy(InputStream in, ByteArrayOutputStream output) {
    byte[] buffer = new byte[8192];
    try (in) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        synchronized (output) {
          output.write(buffer, 0, n);
        }
      }
    } catch (IOException e) {
      // the pipe closed: what was read so far is the output
    }
  }

  /**
   * What the command printed: all of it once the pipe closes; a grandchild (a docker command kind
   * started) may hold the pipe open a little longer, so the wait for the end is bounded.
   */
  private static String textOf(ByteArrayOutputStream output, Thread reader)
      throws InterruptedException {
    reader.join(Duration.ofSeconds(10).toMillis());
    synchronized (output) {
      return output.toString(StandardCharsets.UTF_8);
    }
  }
}
