package io.github.kubeharness.internal.junit;

import io.github.kubeharness.KubeHarnessException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One run of a test, as its kind of test decides it: the Kubernetes version it runs on, the seed of
 * its random choices, where its failure report goes, and what is checked once its body passed.
 * Every kind of test builds one — a plain test ({@link #plain}), one version of a matrix test
 * ({@link #onVersion}), one seed of a race test ({@link #withSeed}), the class's own start ({@link
 * #forClass}) — and the lifecycle passes it down as it is (the method store keeps it for the test's
 * teardown and report): a new kind of test is a new value here, not a branch there.
 *
 * <p>The seed is decided here and only here: {@code kubeharness.seed} when it is set (a replay),
 * else a race test's run number, else a new one per run.
 *
 * @param kubernetesVersion the version of the cluster the run is on
 * @param seed the seed of every random choice of the run's {@code Faults}
 * @param reportDirectory {@code <method>}, {@code <method>-k8s-<version>} for a run of a named
 *     matrix, {@code <method>-seed-<seed>} for a run of a race test, {@code beforeAll} for the
 *     class
 * @param afterBody what is checked once the body passed and no controller failed
 */
record Invocation(String kubernetesVersion, long seed, Path reportDirectory, AfterBody afterBody) {

  /** A check of a run whose body passed: the failure, or empty. */
  @FunctionalInterface
  interface AfterBody {
    AfterBody NOTHING = scope -> Optional.empty();

    Optional<AssertionError> check(TestScope scope);
  }

  /** A plain test ({@code @Test} and the like): one run on the class's version. */
  static Invocation plain(ExtensionConfig config, ExtensionContext test) {
    String method = test.getRequiredTestMethod().getName();
    if (config.matrixDeclared()) {
      throw new ExtensionConfigurationException(
          "@ControllerTest on "
              + config.testClass().getName()
              + " declares kubernetesVersions, so its tests run once per version: annotate "
              + method
              + " with @MatrixTest instead of @Test. A @Test, @ParameterizedTest or"
              + " @RepeatedTest would run on one version only: keep those in a class without"
              + " kubernetesVersions.");
    }
    return new Invocation(
        config.controlPlane().kubernetesVersion(),
        seed(config),
        TestReports.directory(test.getRequiredTestClass(), method),
        AfterBody.NOTHING);
  }

  /** The class's start on its version, before its tests: its per-class scope, if it has one. */
  static Invocation forClass(ExtensionConfig config, Class<?> testClass) {
    return new Invocation(
        config.controlPlane().kubernetesVersion(),
        seed(config),
        TestReports.directory(testClass, "beforeAll"),
        AfterBody.NOTHING);
  }

  /**
   * A run of a matrix test on {@code version}.
   *
   * @throws KubeHarnessException when the version cannot be had: only its runs fail
   */
  static Invocation onVersion(
      ExtensionConfig config, ExtensionContext test, MatrixVersion version) {
    if (version.failure() != null) {
      throw new KubeHarnessException(
          "Kubernetes " + version.asked() + " cannot be had: " + version.failure().getMessage(),
          version.failure());
    }
    String method = test.getRequiredTestMethod().getName();
    return new Invocation(
        version.version(),
        seed(config),
        TestReports.directory(
            test.getRequiredTestClass(),
            config.matrix().isEmpty() ? method : method + "-k8s-" + version.version()),
        AfterBody.NOTHING);
  }

  /**
   * The seeds of a race test's runs: 1 to {@code runs}; only that of {@code kubeharness.seed} when
   * it is set (a replay).
   *
   * @throws ExtensionConfigurationException for a class whose runs cannot each have a namespace and
   *     controllers of their own on one version, or fewer than one run
   */
  static Stream<Long> raceSeeds(ExtensionConfig config, String method, int runs) {
    if (config.matrixDeclared() || config.namespacePerClass()) {
      throw new ExtensionConfigurationException(
          "@ControllerTest on "
              + config.testClass().getName()
              + (config.matrixDeclared()
                  ? " declares kubernetesVersions"
                  : " has namespaceMode = PER_CLASS")
              + ", but "
              + method
              + " is a @RaceTest, whose runs each need a namespace and controllers of their own on"
              + " one version: move it to a class without "
              + (config.matrixDeclared() ? "kubernetesVersions." : "PER_CLASS."));
    }
    if (runs < 1) {
      throw new ExtensionConfigurationException(
          "@RaceTest(runs = " + runs + ") on " + method + ": give 1 or more runs.");
    }
    return config.seed().isPresent()
        ? Stream.of(config.seed().get())
        : LongStream.rangeClosed(1, runs).boxed();
  }

  /**
   * A run of a race test under {@code seed} (one of {@link #raceSeeds}): after its body passed, the
   * explorer's invariants of {@code checks} are checked ({@link RaceInvariants}).
   */
  static Invocation withSeed(
      ExtensionConfig config, ExtensionContext test, long seed, RaceChecks checks) {
    return new Invocation(
        config.controlPlane().kubernetesVersion(),
        seed,
        TestReports.directory(
            test.getRequiredTestClass(), test.getRequiredTestMethod().getName() + "-seed-" + seed),
        scope -> RaceInvariants.after(scope, checks, seed));
  }

  // A run that is no race run: the setting's seed (a replay), else a new one.
  private static long seed(ExtensionConfig config) {
    return config.seed().orElseGet(() -> new SplittableRandom().nextLong());
  }
}
