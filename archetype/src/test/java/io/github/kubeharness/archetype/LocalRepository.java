package io.github.kubeharness.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a generated project's build finds kube-harness as a user's would, in a local Maven
 * repository: a private one holding this build's harness, CLI and archetype jars (and their parent
 * POM), chained to the repository this build uses for everything else, read-only ({@code
 * maven.repo.local.tail}) and offline, so that nothing is installed into the shared one and nothing
 * is downloaded.
 */
final class LocalRepository {

  static final String VERSION = System.getProperty("kubeharness.project.version");

  private LocalRepository() {}

  /** A private local repository under {@code repository} with this build's jars in it. */
  static Path withThisBuild(Path repository) throws IOException {
    assertThat(VERSION)
        .as("system property kubeharness.project.version (set by the pom)")
        .isNotNull();
    Path parent = repository.resolve("io/github/kubeharness/kube-harness-parent/" + VERSION);
    Files.createDirectories(parent);
    Files.copy(Path.of("../pom.xml"), parent.resolve("kube-harness-parent-" + VERSION + ".pom"));
    for (String[] module :
        new String[][] {{"harness", "kube-harness"}, {"cli", "kube-harness-cli"}}) {
      Path dir = repository.resolve("io/github/kubeharness/" + module[1] + "/" + VERSION);
      Files.createDirectories(dir);
      Path jar = Path.of("../" + module[0] + "/target/" + module[1] + "-" + VERSION + ".jar");
      assertThat(jar).as("the jar the %s module builds", module[0]).isRegularFile();
      Files.copy(jar, dir.resolve(module[1] + "-" + VERSION + ".jar"));
      Files.copy(
          Path.of("../" + module[0] + "/pom.xml"), dir.resolve(module[1] + "-" + VERSION + ".pom"));
    }
    Path archetype =
        repository.resolve("io/github/kubeharness/kube-harness-operator-archetype/" + VERSION);
    Files.createDirectories(archetype);
    Path jar = Path.of("target/kube-harness-operator-archetype-" + VERSION + ".jar");
    assertThat(jar).as("the archetype jar of this module's package phase").isRegularFile();
    Files.copy(jar, archetype.resolve(jar.getFileName()));
    Files.copy(
        Path.of("pom.xml"),
        archetype.resolve("kube-harness-operator-archetype-" + VERSION + ".pom"));
    return repository;
  }

  /** {@code mvnw -B -ntp -o} on the private repository, chained to this build's. */
  static List<String> maven(Path repository) {
    String shared = System.getProperty("kubeharness.maven.repository");
    assertThat(shared)
        .as("system property kubeharness.maven.repository (set by the pom)")
        .isNotNull();
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            Path.of("../mvnw").toAbsolutePath().normalize().toString(),
            "-B",
            "-ntp",
            "-o",
            "-Dmaven.repo.local=" + repository,
            "-Dmaven.repo.local.tail=" + shared));
    return command;
  }

  /**
   * {@code mvn archetype:generate} of this module's archetype into {@code parent}, with the names
   * of the generator's examples; the project's directory ({@code parent/guestbook-operator}).
   */
  static Path generate(Path parent, Path repository, Path log) throws Exception {
    List<String> command = maven(repository);
    command.addAll(
        List.of(
            System.getProperty("kubeharness.archetype.plugin") + ":generate",
            "-DinteractiveMode=false",
            "-DarchetypeGroupId=io.github.kubeharness",
            "-DarchetypeArtifactId=kube-harness-operator-archetype",
            "-DarchetypeVersion=" + VERSION,
            "-DgroupId=com.example.guestbook",
            "-DartifactId=guestbook-operator",
            "-Dpackage=com.example.guestbook",
            "-Ddomain=my.domain"));
    Files.createDirectories(parent);
    Commands.run(parent, log, java.util.Map.of(), command).succeeded();
    return parent.resolve("guestbook-operator");
  }
}
