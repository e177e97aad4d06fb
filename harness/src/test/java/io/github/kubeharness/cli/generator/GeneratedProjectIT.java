package io.github.kubeharness.cli.generator;

import static io.github.kubeharness.cli.generator.GeneratorCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator's promise: {@code init} then {@code create api} give a project whose own {@code mvn
 * verify} passes, its generated tests running the reconciler against a real API server under the
 * project's RBAC. The project's build finds kube-harness as a user's would, in a local Maven
 * repository: a private one holding this build's harness jar (and its parent POM), chained to the
 * repository this build uses for everything else, read-only ({@code maven.repo.local.tail}) and
 * offline, so that nothing is installed into the shared one and nothing is downloaded.
 */
class GeneratedProjectIT {

  private static final String VERSION = System.getProperty("kubeharness.project.version");

  @Test
  void initAndCreateApiGiveAProjectWhoseOwnVerifyPasses(@TempDir Path tmp) throws Exception {
    Path project = tmp.resolve("guestbook-operator");
    run(
            "init",
            "--domain",
            "my.domain",
            "--package",
            "com.example.guestbook",
            "--dir",
            project.toString())
        .succeeded();
    run(
            "create",
            "api",
            "--group",
            "webapp",
            "--version",
            "v1",
            "--kind",
            "Guestbook",
            "--dir",
            project.toString())
        .succeeded();
    Path repository = harnessInstalledInto(tmp.resolve("m2"));

    Path log = tmp.resolve("verify.log");
    int exit = mavenVerify(project, repository, log);

    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(exit)
        .as("the generated project's mvn verify failed; its output ends with:%n%s", tail(output))
        .isZero();
    String summary =
        Files.readString(project.resolve("target/failsafe-reports/failsafe-summary.xml"));
    // create → children → status, delete → GC, the CEL rejection: all three ran and passed
    assertThat(summary)
        .contains(
            "<completed>3</completed>",
            "<failures>0</failures>",
            "<errors>0</errors>",
            "<skipped>0</skipped>");
  }

  /** A private local repository with this build's kube-harness in the layout Maven reads. */
  private static Path harnessInstalledInto(Path repository) throws IOException {
    assertThat(VERSION)
        .as("system property kubeharness.project.version (set by the pom)")
        .isNotNull();
    Path harness = repository.resolve("io/github/kubeharness/kube-harness/" + VERSION);
    Path parent = repository.resolve("io/github/kubeharness/kube-harness-parent/" + VERSION);
    Files.createDirectories(harness);
    Files.createDirectories(parent);
    Path jar = Path.of("target/kube-harness-" + VERSION + ".jar");
    assertThat(jar).as("the harness jar of this module's package phase").isRegularFile();
    Files.copy(jar, harness.resolve("kube-harness-" + VERSION + ".jar"));
    Files.copy(Path.of("pom.xml"), harness.resolve("kube-harness-" + VERSION + ".pom"));
    Files.copy(Path.of("../pom.xml"), parent.resolve("kube-harness-parent-" + VERSION + ".pom"));
    return repository;
  }

  private static int mavenVerify(Path project, Path repository, Path log) throws Exception {
    String shared = System.getProperty("kubeharness.maven.repository");
    assertThat(shared)
        .as("system property kubeharness.maven.repository (set by the pom)")
        .isNotNull();
    Path mvnw = Path.of("../mvnw").toAbsolutePath().normalize();
    Process maven =
        new ProcessBuilder(
                List.of(
                    mvnw.toString(),
                    "-B",
                    "-ntp",
                    "-o",
                    "-Dmaven.repo.local=" + repository,
                    "-Dmaven.repo.local.tail=" + shared,
                    "verify"))
            .directory(project.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!maven.waitFor(20, TimeUnit.MINUTES)) {
      maven.descendants().forEach(ProcessHandle::destroyForcibly);
      maven.destroyForcibly();
      throw new AssertionError("the generated project's mvn verify ran 20 minutes; log: " + log);
    }
    return maven.exitValue();
  }

  private static String tail(String output) {
    List<String> lines = output.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
  }
}
