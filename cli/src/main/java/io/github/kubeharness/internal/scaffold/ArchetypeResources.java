package io.github.kubeharness.internal.scaffold;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Writes the Maven archetype's content ({@code archetype-resources/} and {@code
 * META-INF/maven/archetype-metadata.xml}) from the generator's templates, so that {@code mvn
 * archetype:generate} makes the project {@code kube-harness init} then {@code create api} with the
 * sample kind make, from one set of templates. The archetype module's build runs it (its {@code
 * main}).
 *
 * <p>The archetype plugin renders files with Velocity, whose {@code $} and {@code #} the templates
 * are full of (Makefile, YAML comments, Maven properties). So each file is rendered here with a
 * marker per user value, then wrapped in Velocity's unparsed block {@code #[[ ... ]]#}, each marker
 * becoming {@code ]]#${property}#[[}: Velocity outputs everything else exactly as written.
 */
public final class ArchetypeResources {

  /** Template value to the archetype property that carries it. */
  private static final Map<String, String> PROPERTIES =
      Map.of(
          "domain", "domain",
          "package", "package",
          "packagePath", "packageInPathFormat",
          "projectName", "artifactId",
          "groupId", "groupId");

  /**
   * The kind the archetype's project comes with ({@code create api --group webapp --version v1
   * --kind Guestbook}): so that its first {@code mvn verify} runs a reconciler's tests, as {@code
   * init} then {@code create api} do. Further kinds: {@code kube-harness create api}.
   */
  static final String SAMPLE_GROUP = "webapp";

  static final String SAMPLE_VERSION = "v1";
  static final String SAMPLE_KIND = "Guestbook";

  private ArchetypeResources() {}

  /** Writes the archetype's content under {@code args[0]} (the module's classes directory). */
  public static void main(String[] args) throws IOException {
    write(Path.of(args[0]));
  }

  /** Writes the archetype's content under {@code output}. */
  static void write(Path output) throws IOException {
    Path resources = output.resolve("archetype-resources");
    Map<String, String> files = project(resources);
    TreeSet<String> rootFiles = new TreeSet<>();
    TreeSet<String> directories = new TreeSet<>();
    for (Map.Entry<String, String> entry : files.entrySet()) {
      // The archetype puts packaged files into the package's directory itself.
      String path = entry.getKey().replace(marker("packagePath"), "").replace("//", "/");
      if (path.indexOf('\u0001') >= 0) {
        throw new IllegalStateException("A user value in the path of archetype file " + path);
      }
      Path file = resources.resolve(path);
      Files.createDirectories(file.getParent());
      Files.writeString(file, velocity(entry.getValue()), StandardCharsets.UTF_8);
      int slash =
          path.startsWith("src/") ? path.indexOf('/', path.indexOf('/', 4) + 1) : path.indexOf('/');
      if (slash < 0) {
        if (!path.equals("pom.xml")) {
          rootFiles.add(path);
        }
      } else {
        directories.add(path.substring(0, slash));
      }
    }
    Path metadata = output.resolve("META-INF/maven/archetype-metadata.xml");
    Files.createDirectories(metadata.getParent());
    Files.writeString(metadata, metadata(rootFiles, directories), StandardCharsets.UTF_8);
  }

  /**
   * The project of {@code init} then {@code create api} with the sample kind, in memory, a marker
   * in place of each user value: relative path (the package's directory a marker too) to content.
   */
  private static Map<String, String> project(Path resources) {
    Map<String, String> values = new LinkedHashMap<>(ScaffoldVersions.all());
    for (String name : PROPERTIES.keySet()) {
      values.put(name, marker(name));
    }
    values.put("dot", ".");
    // The archetype replaces __dot__ in file names by the property dot (default '.'): Maven's
    // resource copying would leave out a file named .gitignore.
    Map<String, String> pathValues = new LinkedHashMap<>(values);
    pathValues.put("dot", "__dot__");
    Map<String, String> files = new LinkedHashMap<>();
    for (String template : Templates.index("init")) {
      files.put(
          Templates.fill(template, pathValues), Templates.renderOne("init/" + template, values));
    }
    ApiFiles api =
        ApiFiles.of(
            ApiFiles.values(values, marker("domain"), SAMPLE_GROUP, SAMPLE_VERSION, SAMPLE_KIND),
            path -> {
              String text = files.get(path);
              if (text == null) {
                throw new IllegalStateException("create api edits " + path + ", not in init's");
              }
              return text;
            },
            resources);
    files.putAll(api.created());
    files.putAll(api.edited());
    return files;
  }

  private static String marker(String name) {
    return "\u0001" + name + "\u0001";
  }

  private static String velocity(String content) {
    String text = "#[[" + content + "]]#";
    for (Map.Entry<String, String> property : PROPERTIES.entrySet()) {
      text = text.replace(marker(property.getKey()), "]]#${" + property.getValue() + "}#[[");
    }
    return text;
  }

  private static String metadata(TreeSet<String> rootFiles, TreeSet<String> directories) {
    StringBuilder xml = new StringBuilder();
    xml.append(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Written by kube-harness's ArchetypeResources from the init and api templates; do not edit. -->
        <archetype-descriptor name="kube-harness-operator"
            xmlns="http://maven.apache.org/plugins/maven-archetype-plugin/archetype-descriptor/1.1.0"
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
            xsi:schemaLocation="http://maven.apache.org/plugins/maven-archetype-plugin/archetype-descriptor/1.1.0 https://maven.apache.org/xsd/archetype-descriptor-1.1.0.xsd">
          <requiredProperties>
            <requiredProperty key="domain"/>
            <requiredProperty key="dot">
              <defaultValue>.</defaultValue>
            </requiredProperty>
          </requiredProperties>
          <fileSets>
        """);
    for (String directory : directories) {
      boolean packaged = directory.equals("src/main/java") || directory.equals("src/test/java");
      xml.append("    <fileSet filtered=\"true\" packaged=\"")
          .append(packaged)
          .append("\" encoding=\"UTF-8\">\n      <directory>")
          .append(directory)
          .append("</directory>\n      <includes>\n        <include>**/*</include>\n")
          .append("      </includes>\n    </fileSet>\n");
    }
    xml.append(
            "    <fileSet filtered=\"true\" encoding=\"UTF-8\">\n      <directory></directory>\n")
        .append("      <includes>\n");
    for (String file : rootFiles) {
      xml.append("        <include>").append(file).append("</include>\n");
    }
    xml.append("      </includes>\n    </fileSet>\n  </fileSets>\n</archetype-descriptor>\n");
    return xml.toString();
  }
}
