package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A part of a document that a command generates, between two marker lines: the drift check of
 * docs/configuration.md, docs/backends.md and whatever else is generated from code.
 */
final class GeneratedSection {

  private GeneratedSection() {}

  /**
   * Fails, with a line diff and the command that regenerates it, unless the lines between {@code
   * start} and {@code end} in {@code document} (relative to the repository) are {@code generated}.
   */
  static void assertCommittedIsGenerated(
      String document, String start, String end, String generated, String command)
      throws IOException {
    Path doc = MarkdownDocs.root().resolve(document);
    String text = Files.readString(doc);
    int from = text.indexOf(start);
    int to = text.indexOf(end);
    assertThat(from).as("%s holds the marker %s", doc, start).isNotNegative();
    assertThat(to).as("%s holds the marker %s", doc, end).isGreaterThan(from);
    List<String> committed = text.substring(from + start.length() + 1, to).lines().toList();
    List<String> expected = generated.lines().toList();
    if (!committed.equals(expected)) {
      fail(
          document
              + " differs from what `"
              + command
              + "` generates (- committed, + generated):\n"
              + LineDiff.of(committed, expected)
              + "\nRegenerate it: make cli && java -jar"
              + " target/kube-harness.jar "
              + command.replaceFirst("^kube-harness ", "")
              + ", and paste the output between the two markers.");
    }
  }
}
