package io.github.kubeharness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The project's Markdown documents as the doc tests read them: README.md, CONTRIBUTING.md,
 * CHANGELOG.md and docs/*.md, with their fenced code blocks found once here.
 */
final class MarkdownDocs {

  private static final Pattern FENCE_OPEN = Pattern.compile("^( *)(`{3,}|~{3,})\\s*([^`\\s]*).*$");
  private static final Pattern SNIPPET_MARKER =
      Pattern.compile("^\\s*<!--\\s*snippet:\\s*(\\S+?)\\s*-->\\s*$");

  private MarkdownDocs() {}

  /** A fenced code block: where it opens, its language, its lines and the snippet it claims. */
  record Block(Path file, int line, String language, List<String> body, String snippet) {
    String where() {
      return root().relativize(file) + ":" + line;
    }
  }

  /**
   * The repository's top directory. Under Maven the working directory is the module's, so it is the
   * nearest directory above that holds README.md and docs/.
   */
  static Path root() {
    Path start = Path.of("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "No directory with README.md and docs/ at or above " + start + ": run from the repository");
  }

  /** Every document the checks cover, README.md first. */
  static List<Path> files() {
    Path root = root();
    List<Path> files = new ArrayList<>();
    for (String top : List.of("README.md", "CONTRIBUTING.md", "CHANGELOG.md")) {
      if (Files.isRegularFile(root.resolve(top))) {
        files.add(root.resolve(top));
      }
    }
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    }
  }

  /**
   * The fenced blocks of a document. A block's lines lose the fence's own indentation (a fence
   * inside a list item is indented); its snippet is the marker on the last non-blank line before
   * it, if any.
   */
  static List<Block> blocks(Path file) {
    List<String> lines = lines(file);
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher open = FENCE_OPEN.matcher(lines.get(i));
      if (!open.matches()) {
        continue;
      }
      int indent = open.group(1).length();
      String fence = open.group(2);
      List<String> body = new ArrayList<>();
      int j = i + 1;
      while (j < lines.size() && !isClosing(lines.get(j), fence)) {
        body.add(stripIndent(lines.get(j), indent));
        j++;
      }
      blocks.add(new Block(file, i + 1, open.group(3), body, markerBefore(lines, i)));
      i = j;
    }
    return blocks;
  }

  /** The document's lines outside fenced blocks (blank lines stand in for the blocks' lines). */
  static List<String> prose(Path file) {
    List<String> lines = new ArrayList<>(lines(file));
    for (Block block : blocks(file)) {
      for (int k = block.line() - 1; k <= block.line() + block.body().size(); k++) {
        if (k < lines.size()) {
          lines.set(k, "");
        }
      }
    }
    return lines;
  }

  private static boolean isClosing(String line, String fence) {
    String trimmed = line.strip();
    return trimmed.length() >= fence.length()
        && trimmed.chars().allMatch(c -> c == fence.charAt(0));
  }

  private static String stripIndent(String line, int indent) {
    int k = 0;
    while (k < indent && k < line.length() && line.charAt(k) == ' ') {
      k++;
    }
    return line.substring(k);
  }

  private static String markerBefore(List<String> lines, int fenceIndex) {
    for (int k = fenceIndex - 1; k >= 0; k--) {
      if (lines.get(k).isBlank()) {
        continue;
      }
      Matcher marker = SNIPPET_MARKER.matcher(lines.get(k));
      return marker.matches() ? marker.group(1) : null;
    }
    return null;
  }
}
