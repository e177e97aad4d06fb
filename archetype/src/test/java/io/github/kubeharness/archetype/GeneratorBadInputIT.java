package io.github.kubeharness.archetype;

import static io.github.kubeharness.archetype.GeneratorCommand.createApi;
import static io.github.kubeharness.archetype.GeneratorCommand.init;
import static io.github.kubeharness.archetype.GeneratorCommand.run;
import static io.github.kubeharness.archetype.GeneratorCommand.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.archetype.GeneratorCommand.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input to {@code kube-harness init} and {@code create api}: each exits non-zero, says what was
 * wrong and how to fix it, and leaves the directory exactly as it was (the generator's interface,
 * as outside checks drive it: {@code java -jar target/kube-harness.jar}).
 */
class GeneratorBadInputIT {

  // Generated once (two JVM starts), copied for each test: each test may change its copy.
  @TempDir static Path generated;

  @TempDir Path tmp;
  Path project;

  @BeforeAll
  static void generateAProjectWithOneKind() {
    Path dir = generated.resolve("guestbook-operator");
    init("my.domain", "com.example.guestbook", dir).succeeded();
    createApi("webapp", "v1", "Guestbook", dir).succeeded();
  }

  @BeforeEach
  void aCopyOfIt() throws IOException {
    Path source = generated.resolve("guestbook-operator");
    project = tmp.resolve("guestbook-operator");
    try (Stream<Path> paths = Files.walk(source)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        Files.copy(p, project.resolve(source.relativize(p).toString()));
      }
    }
  }

  static Stream<Arguments> badInit() {
    return Stream.of(
        Arguments.of(
            "My_Domain",
            "com.example.guestbook",
            "new-operator",
            "--domain 'My_Domain' is not valid"),
        Arguments.of(
            "my.domain", "com.Example", "new-operator", "--package 'com.Example' is not valid"),
        Arguments.of("my.domain", "com.example.class", "new-operator", "'class' is a Java keyword"),
        Arguments.of(
            "my.domain",
            "com.example",
            "New_Operator",
            "The project's name comes from the directory's name"));
  }

  @ParameterizedTest(name = "init --domain {0} --package {1} --dir {2}")
  @MethodSource("badInit")
  void initRejectsBadNamesAndWritesNothing(
      String domain, String javaPackage, String dirName, String message) {
    Path dir = tmp.resolve(dirName);

    Result result = init(domain, javaPackage, dir);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains(message);
    assertThat(dir).doesNotExist();
  }

  @Test
  void initRefusesADirectoryThatHoldsFiles() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("busy"));
    Files.writeString(dir.resolve("notes.txt"), "mine");
    Map<String, String> before = snapshot(dir);

    Result result = init("my.domain", "com.example", dir);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("is not empty (it holds notes.txt)", "Fix:");
    assertThat(snapshot(dir)).isEqualTo(before);
  }

  @Test
  void initRefusesAnExistingProject() {
    Map<String, String> before = snapshot(project);

    Result result = init("my.domain", "com.example", project);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("is not empty");
    assertThat(snapshot(project)).isEqualTo(before);
  }

  @Test
  void initWithoutItsRequiredOptionsIsAUsageError() {
    Result result = run("init", "--package", "com.example", "--dir", tmp.resolve("x").toString());

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains("Missing required option: '--domain=D'");
    assertThat(tmp.resolve("x")).doesNotExist();
  }

  static Stream<Arguments> badApi() {
    return Stream.of(
        Arguments.of("webapp", "v1", "guestbook", "--kind 'guestbook' is not valid"),
        Arguments.of("webapp", "v1", "Guest-book", "--kind 'Guest-book' is not valid"),
        Arguments.of(
            "webapp", "v1", "Deployment", "a name the generated code does not already use"),
        Arguments.of("webapp", "1", "Cache", "--version '1' is not valid"),
        Arguments.of("webapp", "v1.0", "Cache", "--version 'v1.0' is not valid"),
        Arguments.of("webapp", "V1", "Cache", "--version 'V1' is not valid"),
        Arguments.of("Web_App", "v1", "Cache", "--group 'Web_App' is not valid"),
        // the same kind again, in any version: it would overwrite the first one's classes
        Arguments.of("webapp", "v1", "Guestbook", "has a kind Guestbook already"),
        Arguments.of("webapp", "v2", "Guestbook", "has a kind Guestbook already"));
  }

  @ParameterizedTest(name = "create api --group {0} --version {1} --kind {2}")
  @MethodSource("badApi")
  void createApiRejectsBadNamesAndChangesNothing(
      String group, String version, String kind, String message) {
    Map<String, String> before = snapshot(project);

    Result result = createApi(group, version, kind, project);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains(message);
    assertThat(snapshot(project)).isEqualTo(before);
  }

  @Test
  void createApiRefusesADirectoryInitDidNotMake() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("plain"));
    Files.writeString(dir.resolve("pom.xml"), "<project/>");
    Map<String, String> before = snapshot(dir);

    Result result = createApi("webapp", "v1", "Cache", dir);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .contains("is not a project kube-harness init made: it has no PROJECT file", "Fix:");
    assertThat(snapshot(dir)).isEqualTo(before);
  }

  @Test
  void createApiRefusesAProjectWhoseMainClassLostItsMarker() throws Exception {
    Path main = project.resolve("src/main/java/com/example/guestbook/OperatorMain.java");
    Files.writeString(
        main, Files.readString(main).replaceAll("// kube-harness create api registers.*\n", ""));
    Map<String, String> before = snapshot(project);

    Result result = createApi("webapp", "v1", "Cache", project);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains(main.toString(), "has lost the line", "Fix:");
    assertThat(snapshot(project)).isEqualTo(before);
  }

  @Test
  void createApiRefusesToOverwriteAFileOfTheNewKind() throws Exception {
    Path sample = project.resolve("config/samples/webapp_v1_cache.yaml");
    Files.writeString(sample, "# mine\n");
    Map<String, String> before = snapshot(project);

    Result result = createApi("webapp", "v1", "Cache", project);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains(sample.toString(), "exists already; nothing was changed");
    assertThat(snapshot(project)).isEqualTo(before);
  }

  @Test
  void aSecondKindIsAddedBesideTheFirst() {
    createApi("cache", "v1alpha1", "Memcached", project).succeeded();

    Map<String, String> files = snapshot(project);
    assertThat(files)
        .containsKeys(
            "src/main/java/com/example/guestbook/api/v1alpha1/Memcached.java",
            "config/samples/cache_v1alpha1_memcached.yaml");
    assertThat(files.get("PROJECT")).contains("kind: Guestbook", "kind: Memcached");
    assertThat(files.get("config/rbac/role.yaml"))
        .contains("memcacheds", "guestbooks")
        // one rule for the Deployments both reconcilers own, not one per kind
        .containsOnlyOnce("  - deployments\n");
  }
}
