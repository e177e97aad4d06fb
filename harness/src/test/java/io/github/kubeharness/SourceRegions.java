package io.github.kubeharness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Regions of source files that documents show: the lines between {@code // snippet:NAME} and the
 * next {@code // end-snippet} ({@code #} comments in YAML and shell), markers of other regions left
 * out, blank edges trimmed and the common indentation removed — so a method shows at the left
 * margin in a document.
 */
final class SourceRegions {

  private static final Pattern ANY_MARKER =
      Pattern.compile("^\\s*(//|#)\\s*(snippet:\\S+|end-snippet(:\\S+)?)(\\s.*)?$");

  private SourceRegions() {}

  /**
   * The lines a {@code path#name} reference stands for (the whole file without {@code #name}).
   *
   * @throws IllegalArgumentException naming the file and region when either cannot be found
   */
  static List<String> read(Path root, String reference) {
    int hash = reference.indexOf('#');
    String path = hash < 0 ? reference : reference.substring(0, hash);
    Path file = root.resolve(path).normalize();
    if (!file.startsWith(root) || !Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no file " + path + " (relative to " + root + ")");
    }
    List<String> lines = MarkdownDocs.lines(file);
    if (hash < 0) {
      return tidy(lines);
    }
    String name = reference.substring(hash + 1);
    Pattern start = Pattern.compile("^\\s*(//|#)\\s*snippet:" + Pattern.quote(name) + "(\\s.*)?$");
    Pattern end = Pattern.compile("^\\s*(//|#)\\s*end-snippet(:" + Pattern.quote(name) + ")?\\s*$");
    List<Integer> starts = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (start.matcher(lines.get(i)).matches()) {
        starts.add(i);
      }
    }
    if (starts.size() != 1) {
      throw new IllegalArgumentException(
          path
              + (starts.isEmpty() ? " has no line '// snippet:" : " has several lines '// snippet:")
              + name
              + "'");
    }
    List<String> region = new ArrayList<>();
    for (int i = starts.get(0) + 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (end.matcher(line).matches()) {
        return tidy(region);
      }
      if (!ANY_MARKER.matcher(line).matches()) {
        region.add(line);
      }
    }
    throw new IllegalArgumentException(
        path + ": region '" + name + "' has no '// end-snippet' after its start");
  }

  private static List<String> tidy(List<String> lines) {
    List<String> kept = new ArrayList<>(lines);
    while (!kept.isEmpty() && kept.get(0).isBlank()) {
      kept.remove(0);
    }
    while (!kept.isEmpty() && kept.get(kept.size() - 1).isBlank()) {
      kept.remove(kept.size() - 1);
    }
    int indent =
        kept.stream()
            .filter(l -> !l.isBlank())
            .mapToInt(l -> l.length() - l.stripLeading().length())
            .min()
            .orElse(0);
    return kept.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList();
  }
}
