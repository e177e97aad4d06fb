package io.github.kubeharness;

import static java.util.stream.Collectors.toSet;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.MarkdownDocs.Block;
import io.github.kubeharness.settings.HarnessSettings;
import io.github.kubeharness.settings.Setting;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the README and docs/ name in code exists in the code: every type (and {@code Type.member})
 * written in backticks is a type of this repository or one of {@link ExternalNames}; every {@code
 * kubeharness.*} setting and {@code KUBE_HARNESS_*} variable is in the settings registry ({@link
 * HarnessSettings#ALL}); every {@code make} target is in the Makefile; every repository path in
 * backticks exists. (Links and their anchors: {@link DocLinksTest}; quoted messages: {@link
 * DocsMessagesTest}.) A failure lists {@code file:line — reference — why}.
 */
class DocsReferencesTest {

  private static final Path ROOT = MarkdownDocs.root();
  private static final ProjectSources SOURCES = new ProjectSources(ROOT);

  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
  // A type at the start of a code span, with an optional member: `Backend`, `@ControllerTest`,
  // `ControlPlane.faults()`, `Setting<Profile> PROFILE`, `Backend#AUTO`.
  private static final Pattern TYPE =
      Pattern.compile(
          "^@?(?:io\\.github\\.kubeharness\\.(?:[a-z]\\w*\\.)*)?([A-Z]\\w*)"
              + "(?:[.#]([A-Za-z_]\\w*))?((?:[(<\\[.,\\s].*)?)");
  private static final Pattern FILE_EXTENSION = Pattern.compile(".*\\.(java|ya?ml|md|xml|kt)$");
  private static final Pattern SETTING =
      Pattern.compile("(?:(?<=-D)|(?<![\\w./-]))kubeharness\\.[A-Za-z][\\w.-]*[A-Za-z0-9]");
  private static final Pattern VARIABLE = Pattern.compile("\\bKUBE_HARNESS_[A-Z0-9_]*[A-Z0-9]\\b");
  private static final Pattern MAKE = Pattern.compile("^\\s*(?:\\$\\s+)?make\\s+([^#;&|]*)");
  private static final Pattern MAKE_RULE = Pattern.compile("^([A-Za-z0-9][\\w.-]*)\\s*:(?!=)");
  private static final String SCAFFOLD_MAKEFILE =
      "cli/src/main/resources/io/github/kubeharness/internal/scaffold/templates/init/Makefile";

  @Test
  void everyTypeAndMemberInBackticksExists() {
    List<String> failures = new ArrayList<>();
    int[] checked = {0};
    eachCodeSpan(
        (where, span) -> {
          Matcher type = TYPE.matcher(span);
          if (!type.matches() || isConstantOrVariable(type.group(1))) {
            return;
          }
          if (span.startsWith("@") == false
              && !type.group(3).isEmpty()
              && Character.isWhitespace(type.group(3).charAt(0))) {
            return; // prose in code, not a reference
          }
          String name = type.group(1);
          // `GuestbookSpec.java` names a file, not a member.
          String member = FILE_EXTENSION.matcher(span).matches() ? null : type.group(2);
          checked[0]++;
          if (SOURCES.hasType(name)) {
            if (member != null && !SOURCES.hasMember(name, member)) {
              failures.add(where + " — " + span + " — " + name + " has no " + member);
            }
          } else if (!ExternalNames.ALL.contains(name)) {
            failures.add(
                where
                    + " — "
                    + span
                    + " — no type "
                    + name
                    + " in this repository (if it is another library's, add it to ExternalNames)");
          }
        });
    assertThat(failures).as("types and members the docs name").isEmpty();
    assertThat(checked[0]).as("type references found").isGreaterThan(300);
  }

  @Test
  void everySettingAndVariableIsInTheRegistry() throws IOException {
    List<Setting<?>> registry = new ArrayList<>(HarnessSettings.ALL);
    registry.add(deprecatedKindReuse());
    Set<String> properties =
        registry.stream().filter(Setting::hasProperty).map(Setting::property).collect(toSet());
    Set<String> variables = registry.stream().map(Setting::environmentVariable).collect(toSet());
    // Maven properties of the build (kubeharness.excludedGroups) are named in developing.md.
    String buildProperties = Files.readString(ROOT.resolve("pom.xml"));
    List<String> failures = new ArrayList<>();
    int checked = 0;
    for (Path file : docs()) {
      List<String> lines = MarkdownDocs.lines(file);
      for (int i = 0; i < lines.size(); i++) {
        String where = where(file, i);
        Matcher setting = SETTING.matcher(lines.get(i));
        while (setting.find()) {
          checked++;
          String name = setting.group();
          if (!properties.contains(name)
              && !SOURCES.namesOutsideTheHarness(name)
              && !buildProperties.contains("<" + name + ">")) {
            failures.add(
                where
                    + " — "
                    + name
                    + " — not a setting of the registry, nor a property the Spring or Quarkus"
                    + " integration or a test of this repository reads, nor a property of the"
                    + " root pom.xml");
          }
        }
        Matcher variable = VARIABLE.matcher(lines.get(i));
        while (variable.find()) {
          checked++;
          if (!variables.contains(variable.group())) {
            failures.add(
                where + " — " + variable.group() + " — no setting is read from this variable");
          }
        }
      }
    }
    assertThat(failures).as("settings the docs name").isEmpty();
    assertThat(checked).as("settings named").isGreaterThan(100);
  }

  /**
   * The registry's one deprecated name, {@code kubeharness.kind.reuse}, still read and documented.
   */
  private static Setting<?> deprecatedKindReuse() {
    try {
      Field field =
          Class.forName("io.github.kubeharness.settings.DeprecatedKindReuse")
              .getDeclaredField("KIND_REUSE");
      field.setAccessible(true);
      return (Setting<?>) field.get(null);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("The deprecated kind reuse setting moved: update this test", e);
    }
  }

  @Test
  void everyMakeTargetExists() {
    Set<String> targets = targets(ROOT.resolve("Makefile"));
    Set<String> generated = targets(ROOT.resolve(SCAFFOLD_MAKEFILE));
    List<String> failures = new ArrayList<>();
    int[] checked = {0};
    BiConsumer<String, String> check =
        (where, command) -> {
          Matcher make = MAKE.matcher(command);
          if (!make.find()) {
            return;
          }
          // A generated project's Makefile is the one docs/generator.md talks about.
          Set<String> known = new LinkedHashSet<>(targets);
          if (where.startsWith("docs/generator.md")) {
            known.addAll(generated);
          }
          for (String word : make.group(1).trim().split("\\s+")) {
            if (word.isEmpty() || word.contains("=") || word.startsWith("-")) {
              continue;
            }
            checked[0]++;
            if (!known.contains(word)) {
              failures.add(where + " — make " + word + " — no such target in the Makefile");
            }
          }
        };
    eachCodeSpan(check);
    for (Path file : docs()) {
      for (Block block : MarkdownDocs.blocks(file)) {
        for (int k = 0; k < block.body().size(); k++) {
          check.accept(where(file, block.line() + k), block.body().get(k));
        }
      }
    }
    assertThat(failures).as("make targets the docs name").isEmpty();
    assertThat(checked[0]).as("make targets named").isGreaterThan(50);
  }

  @Test
  void everyRepositoryPathInBackticksExists() {
    Set<String> tops = new LinkedHashSet<>();
    try (Stream<Path> entries = Files.list(ROOT)) {
      entries
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.equals(".git") && !n.equals("target"))
          .forEach(tops::add);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Pattern path =
        Pattern.compile(
            "(?<![\\w./-])((?:"
                + tops.stream().map(Pattern::quote).collect(Collectors.joining("|"))
                + ")/[\\w./{}*<>…@+-]*)");
    List<String> failures = new ArrayList<>();
    int[] checked = {0};
    eachCodeSpan(
        (where, span) -> {
          Matcher found = path.matcher(span);
          while (found.find()) {
            String reference = found.group(1).replaceAll("[.,:;)]+$", "").replaceAll("#.*$", "");
            if (reference.contains("target/") || reference.matches(".*(<|\\{|…|\\.\\.\\.).*")) {
              continue; // build output, or a pattern with a placeholder
            }
            checked[0]++;
            if (!exists(reference)) {
              failures.add(where + " — " + reference + " — no such file or directory");
            }
          }
        });
    assertThat(failures).as("paths the docs name").isEmpty();
    assertThat(checked[0]).as("paths named").isGreaterThan(100);
  }

  private static boolean exists(String reference) {
    if (!reference.contains("*")) {
      return Files.exists(ROOT.resolve(reference));
    }
    PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + reference);
    String fixed = reference.substring(0, reference.indexOf('*'));
    Path base = ROOT.resolve(fixed.contains("/") ? fixed.substring(0, fixed.lastIndexOf('/')) : "");
    try (Stream<Path> all = Files.walk(base)) {
      return all.anyMatch(p -> glob.matches(ROOT.relativize(p)));
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static Set<String> targets(Path makefile) {
    Set<String> targets = new LinkedHashSet<>();
    for (String line : MarkdownDocs.lines(makefile)) {
      Matcher rule = MAKE_RULE.matcher(line);
      if (rule.find()) {
        targets.add(rule.group(1));
      }
    }
    return targets;
  }

  /** A name that is not a type: an all-capitals constant or variable (`CI`, `GOPROXY`). */
  private static boolean isConstantOrVariable(String name) {
    return name.equals(name.toUpperCase(java.util.Locale.ROOT));
  }

  /**
   * The user docs: README.md and docs/*.md. CHANGELOG.md is left out: it records names as they
   * were, and CONTRIBUTING.md points at docs/developing.md.
   */
  static List<Path> docs() {
    return MarkdownDocs.files().stream()
        .filter(f -> !f.getFileName().toString().matches("CHANGELOG.md|CONTRIBUTING.md"))
        .toList();
  }

  private static void eachCodeSpan(BiConsumer<String, String> check) {
    for (Path file : docs()) {
      List<String> prose = MarkdownDocs.prose(file);
      for (int i = 0; i < prose.size(); i++) {
        Matcher span = CODE_SPAN.matcher(prose.get(i));
        while (span.find()) {
          check.accept(where(file, i), span.group(2).strip());
        }
      }
    }
  }

  private static String where(Path file, int index) {
    return ROOT.relativize(file) + ":" + (index + 1);
  }
}
