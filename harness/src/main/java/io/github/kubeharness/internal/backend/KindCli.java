package io.github.kubeharness.internal.backend;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.Watchdog;
import io.github.kubeharness.internal.provision.GoTools;
import java.io.IOException;
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

  private KindCli(String kind) {
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

  private static Result run(List<String> command, Map<String, String> env, Duration timeout) {
    Path output = null;
    try {
      output = Files.createTempFile("kube-harness-kind-", ".log");
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
      builder.environment().putAll(env);
      Process process = builder.start();
      Watchdog.get().watch(process.pid());
      try {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly();
          throw new KubeHarnessException(
              "`"
                  + String.join(" ", command)
                  + "` did not finish within "
                  + timeout.toSeconds()
                  + " s. Its output:\n"
                  + Files.readString(output, StandardCharsets.UTF_8));
        }
      } finally {
        Watchdog.get().unwatch(process.pid());
      }
      return new Result(
          String.join(" ", command),
          process.exitValue(),
          Files.readString(output, StandardCharsets.UTF_8));
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
    } finally {
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException ignored) {
          // a temp file left behind is harmless
        }
      }
    }
  }
}
