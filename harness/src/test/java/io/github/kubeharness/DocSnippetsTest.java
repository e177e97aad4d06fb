package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.MarkdownDocs.Block;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The code in the README and docs/ is code that compiles and runs: every block marked {@code <!--
 * snippet: path#name -->} must equal that region of a real source file (which {@code make test}
 * compiles, and runs when it is a test), and no Java block may go unmarked.
 */
class DocSnippetsTest {

  private static final Path ROOT = MarkdownDocs.root();
  // Code a reader copies: Java a test compiles, manifests a test applies. Shell lines and output
  // are examples of commands, checked where they run (make dev-smoke, .ci/run).
  private static final java.util.Set<String> CHECKED_LANGUAGES =
      java.util.Set.of("java", "yaml", "yml");

  @Test
  void everyMarkedBlockEqualsTheRegionItNames() {
    List<String> failures = new ArrayList<>();
    int checked = 0;
    for (Path file : MarkdownDocs.files()) {
      for (Block block : MarkdownDocs.blocks(file)) {
        if (block.snippet() == null) {
          continue;
        }
        checked++;
        List<String> region;
        try {
          region = SourceRegions.read(ROOT, block.snippet());
        } catch (IllegalArgumentException e) {
          failures.add(block.where() + " shows " + block.snippet() + ", but " + e.getMessage());
          continue;
        }
        if (!region.equals(block.body())) {
          failures.add(
              block.where()
                  + " differs from "
                  + block.snippet()
                  + " (- the source's region, + the document's block); paste the region into the"
                  + " document:\n"
                  + LineDiff.of(region, block.body()));
        }
      }
    }
    assertThat(failures).as("snippets out of date").isEmpty();
    // The README's quick start alone is one; a marker syntax that silently matched nothing would
    // leave this at zero.
    assertThat(checked).as("marked blocks found").isGreaterThanOrEqualTo(2);
  }

  @Test
  void everyJavaAndYamlBlockIsMarkedAsASnippet() {
    List<String> unmarked = new ArrayList<>();
    for (Path file : MarkdownDocs.files()) {
      for (Block block : MarkdownDocs.blocks(file)) {
        if (CHECKED_LANGUAGES.contains(block.language()) && block.snippet() == null) {
          unmarked.add(block.where() + " (starts: " + firstLine(block) + ")");
        }
      }
    }
    assertThat(unmarked)
        .as(
            "Java or YAML blocks with no <!-- snippet: path#name --> line before them: show a"
                + " region of a file the build compiles or a test applies instead (// snippet:name"
                + " ... // end-snippet, # in YAML), so the document cannot drift from the code")
        .isEmpty();
  }

  private static String firstLine(Block block) {
    return block.body().stream().filter(l -> !l.isBlank()).findFirst().orElse("").strip();
  }
}
