package io.github.kubeharness.archetype;

import static io.github.kubeharness.archetype.GeneratorCommand.createApi;
import static io.github.kubeharness.archetype.GeneratorCommand.init;
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
 * repository: a private one holding this build's harness and CLI jars (and their parent POM),
 * chained to the repository this build uses for everything else, read-only ({@code
 * maven.repo.local.tail}) and offline, so that nothing is installed into the shared one and nothing
 * is downloaded.
 */
class GeneratedProjectIT {

  private static final String VERSION = System.getProperty("kubeharness.project.version");

  @Test
  void initAndCreateApiGiveAProjectWhoseOwnVerifyPasses(@TempDir Path tmp) throws Exception {
    Path project = tmp.resolve("guestbook-operator");
    init("my.domain", "com.example.guestbook", project).succeeded();
    createApi("webapp", "v1", "Guestbook", project).succeeded();
    Path repository = harnessInstalledInto(tmp.resolve("m2"));

    Path log = tmp.resolve("verify.log");
    int exit = maven(project, repository, log, "verify");

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

  /**
   * A private local repository with this build's kube-harness and kube-harness-cli (which the
   * project's {@code make dev} runs from its test classpath) in the layout Maven reads.
   */
  private static Path harnessInstalledInto(Path repository) throws IOException {
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
    return repository;
  }

  /**
   * {@code mvn archetype:generate} from this module's archetype makes, file for file, the project
   * {@code kube-harness init} makes: the archetype is that same project, so the test above (its
   * {@code mvn verify} after {@code create api}) covers it too.
   */
  @Test
  void theArchetypeMakesTheProjectInitMakes(@TempDir Path tmp) throws Exception {
    Path fromCli = tmp.resolve("cli/guestbook-operator");
    init("my.domain", "com.example.guestbook", fromCli).succeeded();
    Path repository = harnessInstalledInto(tmp.resolve("m2"));
    Path archetype =
        repository.resolve("io/github/kubeharness/kube-harness-operator-archetype/" + VERSION);
    Files.createDirectories(archetype);
    Path jar = Path.of("target/kube-harness-operator-archetype-" + VERSION + ".jar");
    assertThat(jar).as("the archetype jar of this module's package phase").isRegularFile();
    Files.copy(jar, archetype.resolve(jar.getFileName()));
    Files.copy(
        Path.of("pom.xml"),
        archetype.resolve("kube-harness-operator-archetype-" + VERSION + ".pom"));
    Path generated = Files.createDirectories(tmp.resolve("archetype"));

    Path log = tmp.resolve("generate.log");
    int exit =
        maven(
            generated,
            repository,
            log,
            System.getProperty("kubeharness.archetype.plugin") + ":generate",
            "-DinteractiveMode=false",
            "-DarchetypeGroupId=io.github.kubeharness",
            "-DarchetypeArtifactId=kube-harness-operator-archetype",
            "-DarchetypeVersion=" + VERSION,
            "-DgroupId=com.example.guestbook",
            "-DartifactId=guestbook-operator",
            "-Dpackage=com.example.guestbook",
            "-Ddomain=my.domain");

    assertThat(exit)
        .as(
            "mvn archetype:generate failed; its output ends with:%n%s",
            tail(Files.readString(log, StandardCharsets.UTF_8)))
        .isZero();
    assertThat(GeneratorCommand.snapshot(generated.resolve("guestbook-operator")))
        .isEqualTo(GeneratorCommand.snapshot(fromCli));
  }

  private static int maven(Path dir, Path repository, Path log, String... goals) throws Exception {
    String shared = System.getProperty("kubeharness.maven.repository");
    assertThat(shared)
        .as("system property kubeharness.maven.repository (set by the pom)")
        .isNotNull();
    Path mvnw = Path.of("../mvnw").toAbsolutePath().normalize();
    List<String> command = new java.util.ArrayList<>();
    command.addAll(
        List.of(
            mvnw.toString(),
            "-B",
            "-ntp",
            "-o",
            "-Dmaven.repo.local=" + repository,
            "-Dmaven.repo.local.tail=" + shared));
    command.addAll(List.of(goals));
    Process maven =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!maven.waitFor(20, TimeUnit.MINUTES)) {
      maven.descendants().forEach(ProcessHandle::destroyForcibly);
      maven.destroyForcibly();
      throw new AssertionError("mvn " + String.join(" ", goals) + " ran 20 minutes; log: " + log);
    }
    return maven.exitValue();
  }

  private static String tail(String output) {
    List<String> lines = output.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
  }
}
