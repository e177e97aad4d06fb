package io.github.kubeharness;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
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

  /**
   * The settings are resolved once, at the entry points (the JUnit extension, the options' builder,
   * the CLI), into {@link ControlPlaneOptions}: nothing under {@code internal} reads one, nor
   * builds options or a backend's record afresh (which would read them again). Naming a setting in
   * a message is fine.
   */
  @Test
  void nothingBelowTheEntryPointsReadsASetting() {
    noClasses()
        .that()
        .resideInAPackage("io.github.kubeharness.internal..")
        .should()
        .accessTargetWhere(
            target(Settings.class, "get", "entry")
                .or(target(Setting.class, "value", "read", "resolve"))
                .or(target(ControlPlaneOptions.class, "builder", "defaults"))
                // A backend's record from its settings: the options hold it resolved already.
                .or(
                    target(
                        BackendOptions.class, "of", "auto", "local", "container", "k3s", "kind")))
        .because(
            "the backends get their settings from ControlPlaneOptions and their own"
                + " BackendOptions, resolved once")
        .check(harness);
  }

  /**
   * What the internals read of the JVM and the environment are facts of the platform, each read in
   * one named place: a new reader (a kube-harness setting read deep down, say) fails here, and
   * belongs in {@link Settings#ALL} and the options instead.
   */
  @Test
  void onlyTheseInternalsReadTheEnvironmentOrSystemProperties() {
    noClasses()
        .that()
        .resideInAPackage("io.github.kubeharness.internal..")
        .and()
        .doNotHaveFullyQualifiedName(
            // user.name: the run root's name
            "io.github.kubeharness.internal.process.RunRoot")
        .and()
        .doNotHaveFullyQualifiedName(
            // java.io.tmpdir
            "io.github.kubeharness.internal.process.RunDirectory")
        .and()
        .doNotHaveFullyQualifiedName(
            // PATH, to find kind and docker
            "io.github.kubeharness.internal.backend.KindCli")
        .and()
        .doNotHaveFullyQualifiedName(
            // KUBECONFIG and user.home, as kubectl reads them
            "io.github.kubeharness.internal.backend.ExistingCluster")
        .and()
        .doNotHaveFullyQualifiedName(
            // envtest's USE_EXISTING_CLUSTER, for auto
            "io.github.kubeharness.internal.backend.Backends")
        .and()
        .doNotHaveFullyQualifiedName(
            // envtest's TEST_ASSET_<NAME>
            "io.github.kubeharness.internal.provision.BinaryResolver")
        .and()
        .doNotHaveFullyQualifiedName(
            // java.io.tmpdir, to name the free space it lacks
            "io.github.kubeharness.internal.provision.ReleaseDownload")
        .and()
        .doNotHaveFullyQualifiedName(
            // os.name, os.arch
            "io.github.kubeharness.internal.provision.Platform")
        .and()
        .doNotHaveFullyQualifiedName(
            // the Go command's own GOTOOLCHAIN
            "io.github.kubeharness.internal.provision.SourceBuild")
        .should()
        .accessTargetWhere(target(System.class, "getenv", "getProperty"))
        .because("kube-harness's own settings are resolved into ControlPlaneOptions")
        .check(harness);
  }

  private static DescribedPredicate<JavaAccess<?>> target(Class<?> owner, String... names) {
    Set<String> methods = Set.of(names);
    return DescribedPredicate.describe(
        owner.getSimpleName() + "." + String.join("/", names),
        access ->
            access.getTargetOwner().isEquivalentTo(owner)
                && methods.contains(access.getTarget().getName()));
  }
}
