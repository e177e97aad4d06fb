package io.github.kubeharness.internal.scaffold;

import io.github.kubeharness.KubeHarnessException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@code create api} writes for one kind, worked out from the project's files as they are: the
 * kind's new files and its additions to files {@code init} wrote. Apart from any disk, so that
 * {@code create api} (on a project in a directory) and the Maven archetype (on {@code init}'s
 * templates in memory, {@link ArchetypeResources}) add a kind the same way.
 *
 * @param created new files, relative path to content, in the order {@code api.index} lists them
 * @param edited changed files, relative path to their whole new content
 */
record ApiFiles(Map<String, String> created, Map<String, String> edited) {

  /** The values of the api templates: those of init plus the kind's names. */
  static Map<String, String> values(
      Map<String, String> initValues, String domain, String group, String version, String kind) {
    Map<String, String> values = new LinkedHashMap<>(initValues);
    values.put("group", group);
    values.put("version", version);
    values.put("kind", kind);
    values.put("kindLower", kind.toLowerCase(Locale.ROOT));
    values.put("kindVar", "a" + kind);
    values.put("plural", Names.plural(kind));
    values.put("fullGroup", group + "." + domain);
    return values;
  }

  /**
   * The files for the kind in {@code values}.
   *
   * @param read the current content of a project file by relative path; fails if it cannot
   * @param dir the project's directory, to name files in errors
   */
  static ApiFiles of(Map<String, String> values, Function<String, String> read, Path dir) {
    Map<String, String> created = new LinkedHashMap<>(Templates.render("api", values));
    Map<String, String> edited = new LinkedHashMap<>();
    String role = read.apply("config/rbac/role.yaml");
    String roleAdded = Templates.renderOne("api-edits/role.yaml", values);
    if (!role.contains("\n  - deployments\n")) {
      roleAdded += Templates.renderOne("api-edits/role-deployments.yaml", values);
    }
    append(edited, "config/rbac/role.yaml", role, roleAdded);
    for (String[] file :
        new String[][] {
          {"config/rbac/kustomization.yaml", "rbac-kustomization.yaml"},
          {"config/crd/kustomization.yaml", "crd-kustomization.yaml"},
          {"config/samples/kustomization.yaml", "samples-kustomization.yaml"},
          {ProjectFile.NAME, "PROJECT"}
        }) {
      append(
          edited,
          file[0],
          read.apply(file[0]),
          Templates.renderOne("api-edits/" + file[1], values));
    }
    String main = "src/main/java/" + values.get("packagePath") + "/OperatorMain.java";
    String mainText = read.apply(main);
    int marker = mainText.indexOf(Scaffold.REGISTER_MARKER);
    if (marker < 0) {
      throw new KubeHarnessException(
          dir.resolve(main)
              + " has lost the line '"
              + Scaffold.REGISTER_MARKER
              + " ...' above which create api registers the reconciler; nothing was changed. Fix:"
              + " put it back before operator.start(), as init wrote it.");
    }
    int lineStart = mainText.lastIndexOf('\n', marker) + 1;
    edited.put(
        main,
        mainText.substring(0, lineStart)
            + Templates.renderOne("api-edits/OperatorMain.java", values)
            + mainText.substring(lineStart));
    return new ApiFiles(created, edited);
  }

  private static void append(Map<String, String> edited, String path, String text, String added) {
    edited.put(path, (text.endsWith("\n") ? text : text + "\n") + added);
  }
}
