package io.github.kubeharness;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.github.kubeharness.settings.HarnessSettings;
import io.github.kubeharness.settings.Setting;
import io.github.kubeharness.settings.SettingsResolver;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of the harness's own classes, checked on the compiled code: no package depends on
 * another that depends back on it, the public API types never reach into internals, and the
 * internals serve the front door ({@code launch}) and the entry points, never the other way round.
 * Cycles between classes: {@link ClassCyclesTest}.
 */
class ArchitectureTest {

  /** The packages whose types a user holds, that are no entry point (junit, cli, tools). */
  private static final String[] API_TYPES = {
    "io.github.kubeharness",
    "io.github.kubeharness.assertions",
    "io.github.kubeharness.faults",
    "io.github.kubeharness.simulation",
    "io.github.kubeharness.webhooks"
  };

  private static JavaClasses harness;

  @BeforeAll
  static void importHarness() {
    harness =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.github.kubeharness");
  }

  /** The front door: it makes internal implementations of the API types, so it sits above both. */
  private static final String LAUNCH = "io.github.kubeharness.launch";

  /** No package cycle at all: every arrow between two packages runs one way. */
  @Test
  void noPackageCycles() {
    slices().matching("io.github.(**)").should().beFreeOfCycles().check(harness);
  }

  /**
   * The API types and the assertions stand on their own: nothing under {@code internal} is
   * reachable from them (what makes an implementation is the front door's job, above them).
   */
  @Test
  void apiTypesDoNotDependOnInternals() {
    noClasses()
        .that()
        .resideInAnyPackage(API_TYPES)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.github.kubeharness.internal..")
        .check(harness);
  }

  /** The API types do not name the front door that makes them: it stands above them. */
  @Test
  void apiTypesDoNotDependOnTheFrontDoor() {
    noClasses()
        .that()
        .resideInAnyPackage(API_TYPES)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(LAUNCH)
        .check(harness);
  }

  /**
   * The front door makes internal implementations; the internals never name it (so none of them can
   * make a control plane by the way users do, around {@code Backends}).
   */
  @Test
  void internalsDoNotDependOnTheFrontDoor() {
    noClasses()
        .that()
        .resideInAPackage("io.github.kubeharness.internal..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(LAUNCH)
        .check(harness);
  }

  /** The values at the bottom: what a user names and holds, reading nothing. */
  private static final String[] VALUES = {
    "io.github.kubeharness",
    "io.github.kubeharness.faults",
    "io.github.kubeharness.simulation",
    "io.github.kubeharness.webhooks"
  };

  /** The registry of settings, above the values and below everything that resolves options. */
  private static final String SETTINGS = "io.github.kubeharness.settings";

  /**
   * The values (the root package, faults, simulation, webhooks) know nothing of the settings
   * registry above them: it depends on them, never the reverse (docs/architecture.md).
   */
  @Test
  void valuesDoNotDependOnTheSettingsRegistry() {
    noClasses()
        .that()
        .resideInAnyPackage(VALUES)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(SETTINGS)
        .check(harness);
  }

  /**
   * The values read nothing of the JVM or the environment: what a setting says reaches them through
   * the registry's resolver. One platform fact stays: the default cache directory under the user's
   * home, as {@code ~/.cache} is the user's.
   */
  @Test
  void valuesReadNoEnvironmentOrSystemProperties() {
    noClasses()
        .that()
        .resideInAnyPackage(VALUES)
        .and()
        .doNotHaveFullyQualifiedName("io.github.kubeharness.ControlPlaneOptions")
        .should()
        .accessTargetWhere(target(System.class, "getenv", "getProperty"))
        .check(harness);
  }

  /**
   * The settings registry stands on the values alone: no internal, no entry point, no front door
   * (they all stand on it).
   */
  @Test
  void theSettingsRegistryStandsOnTheValuesAlone() {
    classes()
        .that()
        .resideInAPackage(SETTINGS)
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage(SETTINGS, "io.github.kubeharness")
                .or(resideOutsideOfPackage("io.github.kubeharness..")))
        .check(harness);
  }

  /**
   * No public or protected signature of the API (a type a user can reach outside {@code internal}:
   * its supertypes, fields, constructors and methods) names an internal type: what a user can call
   * is what harness/api/kube-harness.api lists, and nothing there changes when an internal does.
   */
  @Test
  void noPublicSignatureExposesAnInternalType() {
    classes()
        .that(DescribedPredicate.describe("are reachable API types", ApiSignature::reachable))
        .and()
        .resideOutsideOfPackage(ApiSignature.INTERNAL + "..")
        .should(exposeNoInternalType())
        .check(harness);
  }

  /**
   * A public type under {@code internal} is public because a class of another package uses it; one
   * that only its own package uses is package-private (and so cannot leak into the API).
   */
  @Test
  void publicInternalTypesAreUsedFromAnotherPackage() {
    // The tests are users too: a type they reach from another package must stay public.
    JavaClasses withTests = new ClassFileImporter().importPackages("io.github.kubeharness");
    classes()
        .that()
        .resideInAPackage(ApiSignature.INTERNAL + "..")
        .and()
        .arePublic()
        .and()
        .areTopLevelClasses()
        .and(not(DescribedPredicate.describe("are tests", ArchitectureTest::isTest)))
        // A main class is run by the build (the archetype's resources are written by one).
        .and(not(DescribedPredicate.describe("have a main method", ArchitectureTest::hasMain)))
        .should(beUsedFromAnotherPackage())
        .check(withTests);
  }

  /**
   * The public types under {@code internal} may become fewer, never more. Without a module
   * descriptor (docs/architecture.md says why) package-private is what the compiler enforces for
   * users on the class path; a seam between two internal packages is one small public type and the
   * rest of each package stays package-private. When a change makes fewer public, lower the bound.
   */
  @Test
  void publicInternalTypesDoNotGrow() {
    java.util.List<String> open =
        harness.stream()
            .filter(type -> type.getPackageName().startsWith(ApiSignature.INTERNAL))
            .filter(JavaClass::isTopLevelClass)
            .filter(type -> type.getModifiers().contains(JavaModifier.PUBLIC))
            .map(JavaClass::getName)
            .sorted()
            .toList();
    if (open.size() > MAX_PUBLIC_INTERNAL_TYPES) {
      throw new AssertionError(
          open.size()
              + " public types under internal, at most "
              + MAX_PUBLIC_INTERNAL_TYPES
              + " are allowed: keep the new one package-private (move it beside its users, or give"
              + " the other package one small public seam). Public now: "
              + open);
    }
  }

  /**
   * The public top-level types under {@code internal} today (67 before the boundary's cut, 55 after
   * it). The one added since is a seam: {@code internal.junit.SuitePlan}, which both the public
   * launcher listener and the lifecycle below it use.
   */
  private static final int MAX_PUBLIC_INTERNAL_TYPES = 56;

  private static boolean hasMain(com.tngtech.archunit.core.domain.JavaClass type) {
    return type.getMethods().stream()
        .anyMatch(
            m ->
                m.getName().equals("main")
                    && m.getModifiers()
                        .contains(com.tngtech.archunit.core.domain.JavaModifier.STATIC)
                    && m.getModifiers()
                        .contains(com.tngtech.archunit.core.domain.JavaModifier.PUBLIC));
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
            "io.github.kubeharness.integration",
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
            target(Setting.class, "read", "resolve", "effective")
                .or(target(SettingsResolver.class, "resolve", "local"))
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
   * belongs in {@link HarnessSettings#ALL} and the options instead.
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
            // DOCKER_HOST, as Docker's own clients read it
            "io.github.kubeharness.internal.backend.DockerSocket")
        .and()
        .doNotHaveFullyQualifiedName(
            // KUBECONFIG and user.home, as kubectl reads them
            "io.github.kubeharness.internal.backend.ExistingCluster")
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

  private static ArchCondition<JavaClass> exposeNoInternalType() {
    return new ArchCondition<>("expose no internal type in a public or protected signature") {
      @Override
      public void check(JavaClass type, ConditionEvents events) {
        Map<String, Set<JavaClass>> exposed = new TreeMap<>();
        Set<JavaClass> supertypes = new HashSet<>();
        type.getRawSuperclass().ifPresent(supertypes::add);
        type.getSuperclass().ifPresent(t -> supertypes.addAll(t.getAllInvolvedRawTypes()));
        type.getInterfaces().forEach(t -> supertypes.addAll(t.getAllInvolvedRawTypes()));
        exposed.put(type.getName() + " (its supertypes)", supertypes);
        for (JavaMember member : type.getMembers()) {
          Set<JavaModifier> modifiers = member.getModifiers();
          if (modifiers.contains(JavaModifier.SYNTHETIC)
              || !(modifiers.contains(JavaModifier.PUBLIC)
                  || modifiers.contains(JavaModifier.PROTECTED))) {
            continue;
          }
          Set<JavaClass> involved = new HashSet<>();
          if (member instanceof JavaField field) {
            involved.addAll(field.getType().getAllInvolvedRawTypes());
          } else if (member instanceof JavaCodeUnit code) {
            involved.addAll(code.getAllInvolvedRawTypes());
            involved.addAll(code.getExceptionTypes());
          }
          exposed.put(member.getFullName(), involved);
        }
        exposed.forEach(
            (where, involved) ->
                involved.stream()
                    .filter(t -> t.getPackageName().startsWith(ApiSignature.INTERNAL))
                    .forEach(
                        t ->
                            events.add(
                                SimpleConditionEvent.violated(
                                    type,
                                    where
                                        + " exposes the internal type "
                                        + t.getName()
                                        + ": take a public type (or a new one in the API) there,"
                                        + " or make the member package-private"))));
      }
    };
  }

  private static ArchCondition<JavaClass> beUsedFromAnotherPackage() {
    return new ArchCondition<>("be used from another package") {
      @Override
      public void check(JavaClass type, ConditionEvents events) {
        boolean usedOutside =
            type.getDirectDependenciesToSelf().stream()
                .anyMatch(d -> !d.getOriginClass().getPackageName().equals(type.getPackageName()));
        if (!usedOutside) {
          events.add(
              SimpleConditionEvent.violated(
                  type,
                  type.getName()
                      + " is public, but only its own package uses it: make it package-private"));
        }
      }
    };
  }

  private static boolean isTest(JavaClass type) {
    return type.getSource()
        .map(source -> source.getUri().toString().contains("/test-classes/"))
        .orElse(false);
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
