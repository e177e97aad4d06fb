package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Settings;
import io.github.kubeharness.TemporaryProperty;
import io.github.kubeharness.junit.ScenarioRunner.Outcome;
import io.github.kubeharness.junit.scenarios.MatrixScenarios;
import io.github.kubeharness.settings.SettingsResolver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * Version matrices, run as a user's build would run them: each matrix test once per version on a
 * real API server of that version, named after it; a failure on one version shows that version in
 * its name and report; a version that cannot be had fails its own runs only.
 *
 * <p>Kubernetes 1.36 is built from Go modules the first time (minutes, cached afterwards).
 */
class KubernetesVersionsIT {

  private static final Path REPORTS = Path.of("target/kube-harness/reports");
  private TemporaryProperty noSetting;
  private TemporaryProperty offline;

  // Offline whatever the environment: a version that cannot be had would otherwise make the
  // provisioner try the envtest release index on the internet before building (this machine's
  // rule: no traffic beyond 127.0.0.0/8, and no test waits on a download).
  @BeforeEach
  void clearTheSetting() {
    noSetting = TemporaryProperty.cleared(Settings.KUBERNETES_VERSIONS);
    offline = TemporaryProperty.set(Settings.OFFLINE, "true");
    MatrixScenarios.SEEN.clear();
  }

  @AfterEach
  void restoreTheSetting() {
    noSetting.close();
    offline.close();
  }

  @Test
  void eachMatrixTestRunsOncePerVersionOnThatVersionsApiServer() throws Exception {
    List<Outcome> outcomes = ScenarioRunner.run(MatrixScenarios.ThreeVersionsScenario.class);
    // Derived after the run, from the release list the provisioner read during it.
    String v136 = newestKnown("1.36");

    assertThat(outcomes)
        .extracting(Outcome::displayName)
        .containsExactly(
            "reconcilesOnEachVersion() [k8s " + v136 + "]",
            "reconcilesOnEachVersion() [k8s 1.37.2]",
            "reconcilesOnEachVersion() [k8s 1.36.99]",
            "failsOnlyOn136() [k8s " + v136 + "]",
            "failsOnlyOn136() [k8s 1.37.2]",
            "failsOnlyOn136() [k8s 1.36.99]");
    // The minor resolved to its newest patch; each run talked to a server of its own version.
    assertThat(MatrixScenarios.SEEN)
        .containsExactly(
            "reconcilesOnEachVersion " + v136 + " v" + v136,
            "reconcilesOnEachVersion 1.37.2 v1.37.2");
    assertThat(status(outcomes, "reconcilesOnEachVersion() [k8s " + v136 + "]"))
        .isEqualTo(Status.SUCCESSFUL);
    assertThat(status(outcomes, "reconcilesOnEachVersion() [k8s 1.37.2]"))
        .isEqualTo(Status.SUCCESSFUL);
    assertThat(status(outcomes, "failsOnlyOn136() [k8s 1.37.2]")).isEqualTo(Status.SUCCESSFUL);

    // The failure on one version says which, in its message and in its report.
    String on136 = message(outcomes, "failsOnlyOn136() [k8s " + v136 + "]");
    assertThat(on136)
        .contains("this test breaks on 1.36 on purpose")
        .contains("cluster: Kubernetes " + v136 + ", local backend, minimal profile");
    Path report =
        REPORTS
            .resolve(MatrixScenarios.ThreeVersionsScenario.class.getName())
            .resolve("failsOnlyOn136-k8s-" + v136);
    assertThat(Files.readString(report.resolve("summary.txt")))
        .contains("cluster: Kubernetes " + v136 + ", local backend, minimal profile");
    assertThat(Files.readString(report.resolve("objects.yaml"))).contains("name: w");

    // The version that cannot be had fails its own runs with the reason, the first attempt only.
    assertThat(message(outcomes, "reconcilesOnEachVersion() [k8s 1.36.99]"))
        .contains("k8s.io/kubernetes@v1.36.99 is not served by the Go module proxy")
        .contains("v" + v136);
    assertThat(message(outcomes, "failsOnlyOn136() [k8s 1.36.99]"))
        .contains("failed to start earlier in this run, so it is not tried again")
        .contains("v1.36.99 is not served");
  }

  @Test
  void theSettingReplacesTheClassesMatrix() {
    System.setProperty(Settings.KUBERNETES_VERSIONS, "1.37");

    List<Outcome> outcomes = ScenarioRunner.run(MatrixScenarios.NarrowedScenario.class);

    assertThat(outcomes).extracting(Outcome::displayName).containsExactly("runs() [k8s 1.37.2]");
    assertThat(outcomes).extracting(Outcome::status).containsOnly(Status.SUCCESSFUL);
    assertThat(MatrixScenarios.SEEN).containsExactly("runs 1.37.2");
  }

  @Test
  void aPlainTestInAMatrixClassIsRefusedWithTheFix() {
    Throwable failure =
        ScenarioRunner.onlyFailure(
            ScenarioRunner.run(MatrixScenarios.PlainTestInAMatrixScenario.class));

    assertThat(failure)
        .hasMessageContaining("declares kubernetesVersions, so its tests run once per version")
        .hasMessageContaining("annotate plain with @MatrixTest instead of @Test");
  }

  /**
   * The newest patch of {@code minor} the provisioner can know of: among the Go module proxy's
   * releases as it last listed them (kept in the cache as {@code k8s/served-versions.txt}) and the
   * versions whose binaries are in the cache. Not written down, so that a patch served tomorrow
   * moves the expectation instead of breaking the test.
   */
  private static String newestKnown(String minor) throws IOException {
    Path versions =
        SettingsResolver.resolve(ControlPlaneOptions.defaults()).cacheDirectory().resolve("k8s");
    List<String> known = new ArrayList<>();
    Path served = versions.resolve("served-versions.txt");
    if (Files.isRegularFile(served)) {
      known.addAll(List.of(Files.readString(served).trim().split("\\s+")));
    }
    try (Stream<Path> cached = Files.list(versions)) {
      cached
          .filter(d -> Files.isExecutable(d.resolve("kube-apiserver")))
          .map(d -> d.getFileName().toString().replaceFirst("-.*$", ""))
          .forEach(known::add);
    }
    return known.stream()
        .map(v -> v.replaceFirst("^v", ""))
        .filter(v -> v.matches(Pattern.quote(minor) + "\\.\\d+"))
        .max(Comparator.comparingInt(v -> Integer.parseInt(v.substring(minor.length() + 1))))
        .orElseThrow(() -> new AssertionError("no " + minor + ".x known in " + versions));
  }

  private static Status status(List<Outcome> outcomes, String name) {
    return outcome(outcomes, name).status();
  }

  private static String message(List<Outcome> outcomes, String name) {
    Outcome o = outcome(outcomes, name);
    assertThat(o.status()).as(name).isEqualTo(Status.FAILED);
    return ScenarioRunner.fullMessage(o.failure());
  }

  private static Outcome outcome(List<Outcome> outcomes, String name) {
    return outcomes.stream()
        .filter(o -> o.displayName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + name + " in " + outcomes));
  }
}
