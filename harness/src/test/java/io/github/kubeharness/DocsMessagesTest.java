package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.MarkdownDocs.Block;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every error message the docs quote is one the code can print. The docs' convention: a fenced
 * block right after the line {@code <!-- messages -->} holds messages, one per line (a line
 * indented by two spaces continues the one above, wrapped; one indented further is another
 * program's output quoted inside it, such as a log tail, and is not checked); and each entry of
 * docs/troubleshooting.md that starts with a message in bold code ({@code - **`...`**}) quotes one.
 * {@code ...} or {@code …} in a quote stands for what it leaves out. A message of another program
 * (Maven, JUnit, Docker, kind) is named in {@link #OTHER_PROGRAMS} with whose it is.
 */
class DocsMessagesTest {

  private static final Path ROOT = MarkdownDocs.root();
  private static final String MARKER = "<!-- messages -->";
  private static final Pattern TROUBLE_ENTRY =
      Pattern.compile("^- \\*\\*`(.+?)`\\*\\*", Pattern.DOTALL);

  /** Messages the docs quote that other programs print: the quote's start, and whose it is. */
  private static final Map<String, String> OTHER_PROGRAMS =
      Map.of(
          "NoSuchMethodError:", "the JVM's, running an old kube-harness",
          "The following httpclient factories were detected", "fabric8 kubernetes-client's",
          "The forked VM terminated without properly saying goodbye", "Maven Surefire's",
          "unable to apply caps: operation not permitted", "Docker's (runc)",
          "node image kube-harness/kind-node:v", "kind's",
          "401", "kube-apiserver's status code");

  private static final SourceLiterals LITERALS =
      new SourceLiterals(new ProjectSources(ROOT).mainJava(), scripts());

  @Test
  void everyQuotedMessageIsOneTheCodeCanPrint() {
    List<String> failures = new ArrayList<>();
    int checked = 0;
    for (Quote quote : quotes()) {
      if (OTHER_PROGRAMS.keySet().stream().anyMatch(quote.text::startsWith)) {
        continue;
      }
      checked++;
      String why = LITERALS.whyNot(quote.text);
      if (why != null) {
        failures.add(quote.where + " — \"" + quote.text + "\" — " + why);
      }
    }
    assertThat(failures)
        .as("quoted messages the code does not print (fix the quote, or the convention's marker)")
        .isEmpty();
    assertThat(checked).as("quoted messages found").isGreaterThan(30);
  }

  /** The check can fail: a message nobody writes, and one with a changed word, are refused. */
  @Test
  void aMessageNoSourceWritesIsRefused() {
    assertThat(LITERALS.whyNot("The binary cache is owned by someone else: fix its mode"))
        .isNotNull();
    assertThat(
            LITERALS.whyNot(
                "CRD gadgets.test.kubeharness.io did not become Ready within 30 s. Its conditions:"))
        .isNotNull();
    assertThat(
            LITERALS.whyNot(
                "CRD gadgets.test.kubeharness.io did not become Established and served within 30 s."
                    + " Its conditions:"))
        .isNull();
  }

  record Quote(String where, String text) {}

  static List<Quote> quotes() {
    List<Quote> quotes = new ArrayList<>();
    for (Path file : DocsReferencesTest.docs()) {
      List<String> lines = MarkdownDocs.lines(file);
      String name = ROOT.relativize(file).toString();
      for (Block block : MarkdownDocs.blocks(file)) {
        if (!isMarked(lines, block.line() - 1)) {
          continue;
        }
        Quote message = null;
        for (int k = 0; k < block.body().size(); k++) {
          String line = block.body().get(k);
          if (line.startsWith("  ") && !line.startsWith("   ") && message != null) {
            message = new Quote(message.where, message.text + " " + line.strip());
            quotes.set(quotes.size() - 1, message);
          } else if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
            message = new Quote(name + ":" + (block.line() + 1 + k), line);
            quotes.add(message);
          } else {
            message = null;
          }
        }
      }
      if (name.equals("docs/troubleshooting.md")) {
        troubleshootingEntries(name, lines, quotes);
      }
    }
    return quotes;
  }

  private static boolean isMarked(List<String> lines, int fenceIndex) {
    for (int k = fenceIndex - 1; k >= 0; k--) {
      if (!lines.get(k).isBlank()) {
        return lines.get(k).strip().equals(MARKER);
      }
    }
    return false;
  }

  private static void troubleshootingEntries(String name, List<String> lines, List<Quote> quotes) {
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).startsWith("- **`")) {
        continue;
      }
      // An entry runs on in indented lines; its message may wrap.
      StringBuilder entry = new StringBuilder(lines.get(i));
      for (int k = i + 1; k < lines.size() && lines.get(k).startsWith("  "); k++) {
        entry.append(' ').append(lines.get(k).strip());
      }
      Matcher message = TROUBLE_ENTRY.matcher(entry);
      if (message.find()) {
        quotes.add(new Quote(name + ":" + (i + 1), message.group(1)));
      }
    }
  }

  /** The scripts the build runs, whose echo lines are messages too. */
  private static List<Path> scripts() {
    List<Path> scripts =
        new ArrayList<>(List.of(ROOT.resolve("Makefile"), ROOT.resolve(".ci/run")));
    try (Stream<Path> hack = Files.walk(ROOT.resolve("hack"))) {
      hack.filter(p -> p.toString().endsWith(".sh")).sorted().forEach(scripts::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return scripts;
  }
}
