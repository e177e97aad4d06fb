package io.github.kubeharness.internal.scaffold;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The generator's templates: classpath resources under {@code templates/} beside this class, the
 * one copy both {@code kube-harness init}/{@code create api} and the Maven archetype are made from.
 * A set ({@code init}, {@code api}) lists its files in {@code <set>.index}, since a directory
 * inside a jar cannot be listed. {@code {{name}}} in a path or a file stands for a value; a name
 * without a value is an error, so a template cannot silently leave a placeholder behind.
 */
final class Templates {

  /** {{name}}: letters and digits only, so that GitHub's {@code ${{ expr }}} is left alone. */
  static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Za-z][A-Za-z0-9]*)}}");

  private static final String ROOT = "templates/";

  private Templates() {}

  /** The paths of a template set, as written in its index (placeholders not yet replaced). */
  public static List<String> index(String set) {
    List<String> paths = new ArrayList<>();
    for (String line : read(set + ".index").split("\n")) {
      String path = line.strip();
      if (!path.isEmpty() && !path.startsWith("#")) {
        paths.add(path);
      }
    }
    return paths;
  }

  /** Every file of a set rendered with the values: relative output path to content, in order. */
  public static Map<String, String> render(String set, Map<String, String> values) {
    Map<String, String> files = new LinkedHashMap<>();
    for (String path : index(set)) {
      files.put(fill(path, values), fill(read(set + "/" + path), values));
    }
    return files;
  }

  /** One template file rendered with the values. */
  public static String renderOne(String path, Map<String, String> values) {
    return fill(read(path), values);
  }

  /** The text with each placeholder replaced by its value. */
  static String fill(String text, Map<String, String> values) {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value == null) {
        throw new IllegalStateException(
            "Template placeholder {{" + m.group(1) + "}} has no value; known: " + values.keySet());
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String read(String name) {
    try (InputStream in = Templates.class.getResourceAsStream(ROOT + name)) {
      if (in == null) {
        throw new KubeHarnessException(
            "The generator's template "
                + ROOT
                + name
                + " is missing from the kube-harness CLI jar: the jar is broken; rebuild it"
                + " (make cli).");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read template " + ROOT + name, e);
    }
  }
}
