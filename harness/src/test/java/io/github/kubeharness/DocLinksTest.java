package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the README and docs/ leads somewhere: the file or directory exists, and a
 * {@code #anchor} is a heading of the target document (as GitHub names headings) or an explicit
 * {@code <a id>}. Links to the web are not followed: the build stays offline.
 */
class DocLinksTest {

  private static final Path ROOT = MarkdownDocs.root();
  private static final Pattern LINK =
      Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(\\s+\"[^\"]*\")?\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern HTML_ANCHOR =
      Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);

  private final Map<Path, Set<String>> anchorsByFile = new HashMap<>();

  @Test
  void everyRelativeLinkAndAnchorResolves() {
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path file : MarkdownDocs.files()) {
      List<String> prose = MarkdownDocs.prose(file);
      for (int i = 0; i < prose.size(); i++) {
        Matcher link = LINK.matcher(CODE_SPAN.matcher(prose.get(i)).replaceAll(""));
        while (link.find()) {
          String target = link.group(1);
          if (SCHEME.matcher(target).find()) {
            continue;
          }
          checked++;
          String problem = problem(file, target);
          if (problem != null) {
            broken.add(
                ROOT.relativize(file) + ":" + (i + 1) + " links to " + target + ": " + problem);
          }
        }
      }
    }
    assertThat(broken).as("broken links").isEmpty();
    assertThat(checked).as("relative links found").isGreaterThan(20);
  }

  /** GitHub's heading ids, checked on headings whose ids the docs rely on. */
  @Test
  void headingsAreNamedAsGitHubNamesThem() {
    assertThat(slug("`@ControllerTest` reference")).isEqualTo("controllertest-reference");
    assertThat(slug("The harness's own guarantees, under load and bad input"))
        .isEqualTo("the-harnesss-own-guarantees-under-load-and-bad-input");
    assertThat(slug("Addresses: nothing leaves the machine"))
        .isEqualTo("addresses-nothing-leaves-the-machine");
    assertThat(slug("**Bold** and [a link](x.md) — dash")).isEqualTo("bold-and-a-link--dash");
  }

  private String problem(Path file, String target) {
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
    if (!resolved.startsWith(ROOT)) {
      return "it leaves the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file or directory";
    }
    if (anchor == null) {
      return null;
    }
    if (!resolved.toString().endsWith(".md")) {
      return "an anchor into a file that is not Markdown";
    }
    Set<String> anchors = anchorsByFile.computeIfAbsent(resolved, DocLinksTest::anchors);
    return anchors.contains(anchor)
        ? null
        : "no heading or <a id> '" + anchor + "' in " + ROOT.relativize(resolved);
  }

  private static Set<String> anchors(Path file) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : MarkdownDocs.prose(file)) {
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        String slug = slug(heading.group(2));
        int count = seen.merge(slug, 1, Integer::sum);
        // GitHub numbers repeated headings: x, x-1, x-2, ...
        anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
      }
      Matcher html = HTML_ANCHOR.matcher(line);
      while (html.find()) {
        anchors.add(html.group(1));
      }
    }
    return anchors;
  }

  /**
   * A heading's id as GitHub makes it: the text as rendered (links by their text, no emphasis marks
   * or backticks), lower case, punctuation dropped, each space a hyphen.
   */
  static String slug(String heading) {
    String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "");
    text = text.replaceAll("\\*+", "");
    return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\s_-]", "").replace(' ', '-');
  }
}
