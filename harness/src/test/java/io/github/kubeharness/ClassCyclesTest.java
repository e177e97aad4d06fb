package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.SortedSet;
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
   * jdeps -verbose:class} draws them, nested classes folded): a pair or a triangle in one package
   * is one job cut in files; anything larger is a knot (issue 42 cut the last three: the API and
   * its backends, the values and the settings registry, the JUnit scope).
   */
  @Test
  void noClassCycleSpansTwoPackagesOrHoldsMoreThanThreeClasses() {
    List<String> knots = offendingClassCycles().stream().map(Object::toString).toList();
    assertThat(knots)
        .as(
            "class cycles that span two packages or hold more than three classes (names under "
                + OURS
                + "): cut the arrow back (an interface the lower class owns, a value passed in)")
        .isEmpty();
  }

  private static List<SortedSet<String>> offendingClassCycles() {
    return ClassCycles.of(harness, OURS).stream()
        .filter(cycle -> cycle.size() > 3 || ClassCycles.spansPackages(cycle))
        .toList();
  }
}
