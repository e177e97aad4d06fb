package io.github.kubeharness.internal.scaffold;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The project generator behind {@code kube-harness init} and {@code kube-harness create api}
 * (kubebuilder's two first steps). Everything is checked before the first file is written, and a
 * failed write is undone ({@link FileChanges}): on any error the directory is left as it was.
 */
public final class Scaffold {

  /** The line of the main class above which {@code create api} registers each reconciler. */
  static final String REGISTER_MARKER = "// kube-harness create api registers";

  private Scaffold() {}

  /**
   * Writes a new project into {@code dir} (absent or empty), named after the directory.
   *
   * @return the files written, relative to {@code dir}
   */
  public static List<String> init(Path dir, String domain, String javaPackage) {
    Names.requireDomain(domain);
    Names.requirePackage(javaPackage);
    Path target = dir.toAbsolutePath().normalize();
    String projectName = target.getFileName() == null ? "" : target.getFileName().toString();
    Names.requireProjectName(projectName, dir.toString());
    requireEmptyOrAbsent(target);
    Map<String, String> values = initValues(domain, javaPackage, projectName, javaPackage);
    FileChanges changes = new FileChanges(target);
    Map<String, String> files = Templates.render("init", values);
    files.forEach(changes::create);
    changes.check("kube-harness init");
    changes.apply("kube-harness init");
    return new ArrayList<>(files.keySet());
  }

  /**
   * Adds a kind to the project in {@code dir}: its API classes, reconciler, tests, sample and RBAC.
   *
   * @return the files written or changed, relative to {@code dir}
   */
  public static List<String> createApi(Path dir, String group, String version, String kind) {
    Path target = dir.toAbsolutePath().normalize();
    if (!Files.isDirectory(target)) {
      throw new KubeHarnessException(
          dir
              + " does not exist: create api adds a kind to a project kube-harness init made."
              + " Fix: --dir such a project, or run kube-harness init --dir "
              + dir
              + " first.");
    }
    ProjectFile project = ProjectFile.read(target);
    Names.requireGroup(group);
    Names.requireVersion(version);
    Names.requireKind(kind);
    for (String existing : project.resources()) {
      String existingKind = existing.substring(existing.indexOf('/') + 1);
      if (existingKind.equals(kind)) {
        throw new KubeHarnessException(
            "The project in "
                + dir
                + " has a kind "
                + kind
                + " already ("
                + existing
                + ", listed in PROJECT); create api adds a new kind and changed nothing. Fix:"
                + " edit the existing "
                + kind
                + " classes, or choose another --kind.");
      }
    }
    Map<String, String> values =
        ApiFiles.values(
            initValues(project.domain(), project.javaPackage(), project.projectName(), null),
            project.domain(),
            group,
            version,
            kind);
    ApiFiles files = ApiFiles.of(values, relative -> read(target, relative), target);
    FileChanges changes = new FileChanges(target);
    List<String> touched = new ArrayList<>();
    files.created().forEach(changes::create);
    files.edited().forEach(changes::edit);
    touched.addAll(files.created().keySet());
    touched.addAll(files.edited().keySet());
    changes.check("kube-harness create api");
    changes.apply("kube-harness create api");
    return touched;
  }

  /** The values of the init templates; {@code groupId} null means the package. */
  static Map<String, String> initValues(
      String domain, String javaPackage, String projectName, String groupId) {
    Map<String, String> values = new LinkedHashMap<>(ScaffoldVersions.all());
    // Maven's resource copying leaves out files named like .gitignore: their templates say {{dot}}.
    values.put("dot", ".");
    values.put("domain", domain);
    values.put("package", javaPackage);
    values.put("packagePath", javaPackage.replace('.', '/'));
    values.put("projectName", projectName);
    values.put("groupId", groupId == null ? javaPackage : groupId);
    return values;
  }

  private static void requireEmptyOrAbsent(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    if (!Files.isDirectory(dir)) {
      throw new KubeHarnessException(
          dir
              + " is a file: init writes a new project into an empty or absent directory. Fix:"
              + " --dir another path.");
    }
    try (Stream<Path> entries = Files.list(dir)) {
      List<String> names = entries.map(p -> p.getFileName().toString()).sorted().limit(5).toList();
      if (!names.isEmpty()) {
        throw new KubeHarnessException(
            dir
                + " is not empty (it holds "
                + String.join(", ", names)
                + (names.size() == 5 ? ", ..." : "")
                + "): init writes a new project into an empty or absent directory and changed"
                + " nothing. Fix: --dir a new directory, or add a kind to an existing project"
                + " with kube-harness create api.");
      }
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot list " + dir + ": " + e, e);
    }
  }

  private static String read(Path dir, String relative) {
    Path file = dir.resolve(relative);
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new KubeHarnessException(
          "create api adds to "
              + file
              + ", which cannot be read ("
              + e
              + "); nothing was changed. Fix: restore it, as kube-harness init wrote it.",
          e);
    }
  }
}
