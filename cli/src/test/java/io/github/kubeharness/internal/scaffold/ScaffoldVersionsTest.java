package io.github.kubeharness.internal.scaffold;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A generated project is pinned to what this repository builds with. Library versions come filtered
 * from the root pom's properties; the plugins the root pom pins inline (compiler, shade, jar) or
 * sample-operator does (Jib) are written in versions.properties by hand, so this compares them; the
 * maven-dependency-plugin's is the archetype module's.
 */
class ScaffoldVersionsTest {

  @Test
  void pluginVersionsAreTheOnesThisBuildUses() throws IOException {
    Map<String, String> versions = ScaffoldVersions.all();
    String root = Files.readString(Path.of("../pom.xml"));
    String sample = Files.readString(Path.of("../sample-operator/pom.xml"));

    assertThat(pinned(root, "maven-compiler-plugin")).isEqualTo(versions.get("compilerVersion"));
    assertThat(pinned(root, "maven-shade-plugin")).isEqualTo(versions.get("shadeVersion"));
    assertThat(pinned(root, "maven-jar-plugin")).isEqualTo(versions.get("jarVersion"));
    assertThat(sample).contains("<jib.version>" + versions.get("jibVersion") + "</jib.version>");
  }

  /**
   * The archetype module's build resolves the plugins a generated project's make targets run (its
   * ITs run them offline): the same versions the project names.
   */
  @Test
  void theArchetypeModuleResolvesThePluginVersionsTheProjectRuns() throws IOException {
    Map<String, String> versions = ScaffoldVersions.all();
    String archetype = Files.readString(Path.of("../archetype/pom.xml"));

    assertThat(archetype)
        .contains(
            "<jib.version>" + versions.get("jibVersion") + "</jib.version>",
            "<dependency-plugin.version>"
                + versions.get("dependencyPluginVersion")
                + "</dependency-plugin.version>");
  }

  @Test
  void libraryVersionsAreFilteredFromTheRootPom() {
    assertThat(ScaffoldVersions.all())
        .containsKeys("harnessVersion", "josdkVersion", "fabric8Version", "junitVersion")
        .allSatisfy((name, version) -> assertThat(version).doesNotContain("${"));
  }

  private static String pinned(String pom, String artifactId) {
    var m =
        Pattern.compile("<artifactId>" + artifactId + "</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(pom);
    assertThat(m.find()).as("%s pinned in the root pom", artifactId).isTrue();
    return m.group(1);
  }
}
