package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Annotation attribute > system property > environment variable > default. */
class SettingsPrecedenceTest {

  private static final String CLI = "io.github.kubeharness.cli.KubeHarnessCli";

  @Test
  void theEnvironmentVariableBeatsTheDefault() throws Exception {
    assertThat(effectiveProfile(Map.of("KUBE_HARNESS_PROFILE", "standard"), List.of()))
        .isEqualTo("standard");
  }

  @Test
  void theSystemPropertyBeatsTheEnvironmentVariable() throws Exception {
    assertThat(
            effectiveProfile(
                Map.of("KUBE_HARNESS_PROFILE", "standard"),
                List.of("-Dkubeharness.profile=minimal")))
        .isEqualTo("minimal");
  }

  /** What {@code kube-harness env} in a fresh JVM reports as the profile. */
  private static String effectiveProfile(Map<String, String> env, List<String> jvmOptions)
      throws Exception {
    try (ChildJvm child = ChildJvm.start(env, jvmOptions, CLI, "env")) {
      return child
          .awaitLine(l -> l.startsWith("KUBE_HARNESS_PROFILE="), Duration.ofSeconds(60))
          .substring("KUBE_HARNESS_PROFILE=".length());
    }
  }
}
