package io.github.kubeharness.internal.scaffold;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A generated project's {@code PROJECT} file (kubebuilder's name): what {@code init} was given and
 * the kinds {@code create api} added. Its presence is what makes a directory a generated project.
 *
 * @param domain the API groups' suffix
 * @param javaPackage the root Java package
 * @param projectName the artifactId and kustomize name prefix
 * @param resources each kind added so far, as {@code group/kind}
 * @param text the file as read, which {@code create api} appends to
 */
record ProjectFile(
    String domain, String javaPackage, String projectName, List<String> resources, String text) {

  static final String NAME = "PROJECT";
  static final String LAYOUT = "layout: kube-harness/v1";

  /** Reads DIR/PROJECT, or fails saying DIR is not a project {@code init} made. */
  static ProjectFile read(Path dir) {
    Path file = dir.resolve(NAME);
    if (!Files.isRegularFile(file)) {
      throw new KubeHarnessException(
          dir
              + " is not a project kube-harness init made: it has no "
              + NAME
              + " file. Fix: point --dir at such a project, or make one first with kube-harness"
              + " init --domain D --package P --dir "
              + dir
              + ".");
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot read " + file + ": " + e, e);
    }
    String domain = null;
    String javaPackage = null;
    String projectName = null;
    boolean layout = false;
    List<String> resources = new ArrayList<>();
    String group = null;
    for (String line : text.split("\n")) {
      String trimmed = line.strip();
      if (trimmed.equals(LAYOUT)) {
        layout = true;
      } else if (line.startsWith("domain: ")) {
        domain = value(line);
      } else if (line.startsWith("package: ")) {
        javaPackage = value(line);
      } else if (line.startsWith("projectName: ")) {
        projectName = value(line);
      } else if (trimmed.startsWith("- group: ")) {
        group = value(trimmed.substring(2));
      } else if (trimmed.startsWith("kind: ") && group != null) {
        resources.add(group + "/" + value(trimmed));
      }
    }
    if (!layout || domain == null || javaPackage == null || projectName == null) {
      throw new KubeHarnessException(
          file
              + " is not one kube-harness init wrote: it needs the lines '"
              + LAYOUT
              + "', 'domain: ', 'package: ' and 'projectName: '. Fix: restore them (git checkout "
              + NAME
              + "), or point --dir at a project kube-harness init made.");
    }
    return new ProjectFile(domain, javaPackage, projectName, List.copyOf(resources), text);
  }

  private static String value(String line) {
    return line.substring(line.indexOf(':') + 1).strip();
  }
}
