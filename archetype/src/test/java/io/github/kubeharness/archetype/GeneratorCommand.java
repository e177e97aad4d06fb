package io.github.kubeharness.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs the generator the way outside checks do, {@code java -jar target/kube-harness.jar
 * init|create api ...} (the jar the CLI module, cli/, builds), and snapshots directories to prove
 * one was left as it was.
 */
final class GeneratorCommand {

  static final Path JAR = Path.of("../target/kube-harness.jar").toAbsolutePath();

  /** What a run printed and returned. */
  record Result(int exitCode, String out, String err) {
    Result succeeded() {
      assertThat(exitCode).as("exit code; stderr: %s", err).isZero();
      return this;
    }
  }

  private GeneratorCommand() {}

  /** {@code kube-harness init --domain domain --package javaPackage --dir dir}. */
  static Result init(String domain, String javaPackage, Path dir) {
    return run("init", "--domain", domain, "--package", javaPackage, "--dir", dir.toString());
  }

  /** {@code kube-harness create api --group g --version v --kind k --dir dir}. */
  static Result createApi(String group, String version, String kind, Path dir) {
    return run(
        "create",
        "api",
        "--group",
        group,
        "--version",
        version,
        "--kind",
        kind,
        "--dir",
        dir.toString());
  }

  static Result run(String... args) {
    assertThat(JAR)
        .as(
            "the CLI jar (built by the CLI module: make cli, or ./mvnw -pl cli,archetype -am verify)")
        .isRegularFile();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-jar");
    command.add(JAR.toString());
    command.addAll(List.of(args));
    try {
      Path out = Files.createTempFile("generator", ".out");
      Path err = Files.createTempFile("generator", ".err");
      try {
        Process process =
            new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
          process.destroyForcibly();
          throw new AssertionError("kube-harness " + String.join(" ", args) + " did not exit");
        }
        return new Result(
            process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Every file and directory under dir (relative path to content; directories end in '/'). */
  static Map<String, String> snapshot(Path dir) {
    Map<String, String> entries = new TreeMap<>();
    if (!Files.exists(dir)) {
      return entries;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        String relative = dir.relativize(p).toString();
        entries.put(
            Files.isDirectory(p) ? relative + "/" : relative,
            Files.isDirectory(p) ? "" : Files.readString(p, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return entries;
  }
}
