package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The harness's classes import one another without knots: as {@code jdeps -verbose:class} on
 * harness/target/classes draws them (nested classes folded into their top-level class), no cycle
 * spans two packages or holds more than three classes, beyond the ones {@link #KNOWN_CLASS_CYCLES}
 * lists as still to break. ArchUnit checks cycles between packages ({@link ArchitectureTest}), not
 * between classes; {@link ClassCycles} finds those.
 */
class ClassCyclesTest {

  /**
   * The class-level import cycles (nested classes folded into their top-level class) known when the
   * cycle test came in, each still to break: a cycle that spans two packages or holds more than
   * three classes fails unless it lies within one of these. The branch that breaks one removes it
   * here ({@link #everyKnownClassCycleStillExists} fails on a stale entry), so the list only
   * shrinks.
   */
  private static final List<Set<String>> KNOWN_CLASS_CYCLES =
      List.of(
          // The root package's values and the settings registry (issue 42, item 1).
          Set.of(
              "Backend",
              "BackendOptions",
              "ControlPlaneOptions",
              "DeprecatedKindReuse",
              "NetworkMode",
              "Profile",
              "Setting",
              "SettingSource",
              "Settings"));

  private static final String OURS = "io.github.kubeharness.";

  private static JavaClasses harness;

  @BeforeAll
  static void importHarness() {
    harness =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.github.kubeharness");
  }

  /**
   * No class-level import cycle spans two packages or holds more than three classes (as {@code
   * jdeps -verbose:class} draws them, nested classes folded), beyond {@link #KNOWN_CLASS_CYCLES}: a
   * pair or a triangle in one package is one job cut in files; anything larger is a knot.
   */
  @Test
  void noClassCycleSpansTwoPackagesOrHoldsMoreThanThreeClasses() {
    List<String> knots =
        offendingClassCycles().stream()
            .filter(cycle -> KNOWN_CLASS_CYCLES.stream().noneMatch(k -> k.containsAll(cycle)))
            .map(Object::toString)
            .toList();
    assertThat(knots)
        .as(
            "class cycles that span two packages or hold more than three classes (names under "
                + OURS
                + "): cut the arrow back (an interface the lower class owns, a value passed in)")
        .isEmpty();
  }

  /** Each entry of {@link #KNOWN_CLASS_CYCLES} still matches a cycle: a broken one leaves it. */
  @Test
  void everyKnownClassCycleStillExists() {
    List<SortedSet<String>> offending = offendingClassCycles();
    List<String> stale =
        KNOWN_CLASS_CYCLES.stream()
            .filter(known -> offending.stream().noneMatch(known::containsAll))
            .map(known -> new TreeSet<>(known).toString())
            .toList();
    assertThat(stale)
        .as("cycles in ClassCyclesTest.KNOWN_CLASS_CYCLES that are gone: remove them from it")
        .isEmpty();
  }

  private static List<SortedSet<String>> offendingClassCycles() {
    return ClassCycles.of(harness, OURS).stream()
        .filter(cycle -> cycle.size() > 3 || ClassCycles.spansPackages(cycle))
        .toList();
  }
}
