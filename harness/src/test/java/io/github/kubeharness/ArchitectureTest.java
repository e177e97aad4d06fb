package io.github.kubeharness;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of the harness's own classes, checked on the compiled code: no package depends on
 * another that depends back on it, and the public API types never reach into internals (the
 * backends are found through one seam, {@link BackendProvider}).
 */
class ArchitectureTest {

  private static JavaClasses harness;

  @BeforeAll
  static void importHarness() {
    harness =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.github.kubeharness");
  }

  @Test
  void noPackageCycles() {
    slices().matching("io.github.(**)").should().beFreeOfCycles().check(harness);
  }

  /**
   * The API types and the assertions stand on their own: backends are found through {@link
   * BackendProvider}, so nothing under {@code internal} is reachable from them.
   */
  @Test
  void publicApiAndAssertionsDoNotReachIntoInternals() {
    noClasses()
        .that()
        .resideInAnyPackage("io.github.kubeharness", "io.github.kubeharness.assertions")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.github.kubeharness.internal..")
        .check(harness);
  }

  /** Internals serve the public entry points, never the other way round. */
  @Test
  void internalsDoNotDependOnTheEntryPoints() {
    noClasses()
        .that()
        .resideInAPackage("io.github.kubeharness.internal..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.github.kubeharness.junit",
            "io.github.kubeharness.cli",
            "io.github.kubeharness.tools")
        .check(harness);
  }
}
