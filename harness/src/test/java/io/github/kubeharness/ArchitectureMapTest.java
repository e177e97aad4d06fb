package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/developing.md's map of harness/ names every package there is, and no package that is gone: a
 * package added without a line there fails the build.
 */
class ArchitectureMapTest {

  private static final Pattern MAP_ENTRY = Pattern.compile("^- \\*\\*`([a-z.]+)`\\*\\*");

  @Test
  void theMapNamesExactlyThePackagesOfHarness() throws IOException {
    Path root = MarkdownDocs.root();
    Path sources = root.resolve("harness/src/main/java/io/github/kubeharness");
    Set<String> packages;
    try (Stream<Path> files = Files.walk(sources)) {
      packages =
          files
              .filter(f -> f.toString().endsWith(".java"))
              .map(f -> sources.relativize(f.getParent()).toString().replace('/', '.'))
              .map(p -> p.isEmpty() ? "io.github.kubeharness" : p)
              .collect(Collectors.toCollection(TreeSet::new));
    }
    Set<String> mapped = new TreeSet<>();
    for (String line : MarkdownDocs.lines(root.resolve("docs/developing.md"))) {
      Matcher entry = MAP_ENTRY.matcher(line);
      if (entry.find()) {
        mapped.add(entry.group(1));
      }
    }
    Set<String> unmapped = new TreeSet<>(packages);
    unmapped.removeAll(mapped);
    Set<String> gone = new TreeSet<>(mapped);
    gone.removeAll(packages);
    assertThat(unmapped)
        .as(
            "packages of harness/src/main/java/io/github/kubeharness missing from docs/developing.md's"
                + " architecture map: add a line '- **`package`** — what it holds'")
        .isEmpty();
    assertThat(gone).as("packages in docs/developing.md's map that no longer exist").isEmpty();
  }
}
