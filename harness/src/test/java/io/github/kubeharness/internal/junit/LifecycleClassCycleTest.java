package io.github.kubeharness.internal.junit;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * No import cycle between the classes of this package (nested classes counted with their top-level
 * class, as {@code jdeps -verbose:class} folded shows them): the lifecycle passes an {@link
 * Invocation} down to the scope and its parts, and nothing below reaches back up.
 */
class LifecycleClassCycleTest {

  private static final String PACKAGE = LifecycleClassCycleTest.class.getPackageName();

  @Test
  void noClassOfThePackageDependsBackOnOneThatDependsOnIt() {
    slices()
        .assignedFrom(
            new SliceAssignment() {
              @Override
              public SliceIdentifier getIdentifierOf(JavaClass type) {
                if (!type.getPackageName().equals(PACKAGE)) {
                  return SliceIdentifier.ignore();
                }
                return SliceIdentifier.of(type.getName().replaceAll("\\$.*", ""));
              }

              @Override
              public String getDescription() {
                return "the top-level classes of " + PACKAGE;
              }
            })
        .should()
        .beFreeOfCycles()
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(PACKAGE));
  }
}
