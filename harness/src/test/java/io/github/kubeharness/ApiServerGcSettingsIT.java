package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.settings.HarnessSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The README's memory promise, read from the running process: the local backend's kube-apiserver
 * runs with the Go GC setting of its profile (fast start for minimal, memory near a real cluster's
 * for the others) and a GOMEMLIMIT ceiling.
 */
class ApiServerGcSettingsIT {

  @ParameterizedTest
  @CsvSource({"minimal, 400", "standard, 75"})
  void kubeApiServerRunsWithItsProfilesGcSetting(String profile, String gogc) throws IOException {
    try (ControlPlane controlPlane =
        ControlPlanes.local(
            ControlPlaneOptions.builder()
                .withProfile(HarnessSettings.PROFILE.parse(profile, "test"))
                .build())) {
      controlPlane.start();
      long pid = ComponentProcesses.of(controlPlane).get("kube-apiserver");

      assertThat(environment(pid)).contains("GOGC=" + gogc, "GOMEMLIMIT=1GiB");
    }
  }

  private static List<String> environment(long pid) throws IOException {
    String raw =
        new String(
            Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ")),
            StandardCharsets.UTF_8);
    return Arrays.asList(raw.split("\0"));
  }
}
