package io.github.kubeharness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The repository's own sources as the doc-reference checks see them: every Java type declared in a
 * module (main and test, samples and compat projects included) with the text of the files that
 * declare it, and the classes the project generator writes (its templates, named for the docs'
 * example kind, {@code Guestbook}).
 */
final class ProjectSources {

  private static final Pattern DECLARATION =
      Pattern.compile("\\b(?:class|interface|enum|record|@interface)\\s+([A-Z]\\w*)");
  private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
  private static final String TEMPLATES =
      "cli/src/main/resources/io/github/kubeharness/internal/scaffold/templates";

  private final Path root;
  private final Map<String, List<String>> typeSources = new HashMap<>();
  private final List<Path> mainJava = new ArrayList<>();
  private final List<String> outsideHarnessMain = new ArrayList<>();

  ProjectSources(Path root) {
    this.root = root;
    for (Path file : javaFiles(root)) {
      String text = read(file);
      String name = file.getFileName().toString().replace(".java", "");
      Set<String> names = new LinkedHashSet<>();
      names.add(name.replace("{{kind}}", "Guestbook"));
      Matcher declared = DECLARATION.matcher(text);
      while (declared.find()) {
        names.add(declared.group(1));
      }
      // Members are looked up in the code alone: a javadoc that mentions create() declares none.
      String code = COMMENT.matcher(text).replaceAll(" ");
      for (String type : names) {
        typeSources.computeIfAbsent(type, k -> new ArrayList<>()).add(code);
      }
      if (file.toString().contains("/src/main/java/")) {
        mainJava.add(file);
      }
      if (!root.relativize(file).startsWith("harness/src/main")) {
        outsideHarnessMain.add(text);
      }
    }
  }

  /** Whether a type of this name is declared in the repository (or written by the generator). */
  boolean hasType(String simpleName) {
    return typeSources.containsKey(simpleName);
  }

  /**
   * Whether the code of the type's files (comments left out) names {@code member}: a method, field
   * or constant it declares, or at least uses.
   */
  boolean hasMember(String simpleName, String member) {
    Pattern word = Pattern.compile("\\b" + Pattern.quote(member) + "\\b");
    return typeSources.getOrDefault(simpleName, List.of()).stream()
        .anyMatch(text -> word.matcher(text).find());
  }

  /**
   * Whether {@code name} is a string literal of a source outside the harness's own main code: a
   * property the Spring or Quarkus integration hands the application, or a knob of this
   * repository's own tests (the soak's). The harness's own settings are the registry's, not these.
   */
  boolean namesOutsideTheHarness(String name) {
    String literal = "\"" + name + "\"";
    return outsideHarnessMain.stream().anyMatch(text -> text.contains(literal));
  }

  /** The Java files of every module's src/main/java: where the harness's messages are written. */
  List<Path> mainJava() {
    return mainJava;
  }

  private static List<Path> javaFiles(Path root) {
    List<Path> files = new ArrayList<>();
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              String name = dir.getFileName().toString();
              // Build output and Git's objects hold no source of ours, and are most of the tree.
              return name.equals("target") || name.equals(".git") || name.equals("node_modules")
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              String relative = root.relativize(file).toString();
              if (relative.endsWith(".java")
                  && (relative.contains("src/main/java/")
                      || relative.contains("src/test/java/")
                      || relative.startsWith(TEMPLATES))) {
                files.add(file);
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    files.sort(null);
    return files;
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    }
  }

  Path root() {
    return root;
  }
}
