package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Settings;
import io.github.kubeharness.settings.SettingsResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How the kind backend picks its node image and names its clusters. */
class KindControlPlaneTest {

  @AfterEach
  void clearSettings() {
    System.clearProperty(Settings.KIND_IMAGE);
  }

  @Test
  void ourNodeImageWinsWhereItExistsElseUpstreams() {
    assertThat(KindControlPlane.image("1.37.2", kind(), image -> true))
        .isEqualTo("kube-harness/kind-node:v1.37.2");
    assertThat(KindControlPlane.image("1.37.2", kind(), image -> false))
        .isEqualTo("kindest/node:v1.37.2");
  }

  @Test
  void theSettingWinsOverBoth() {
    System.setProperty(Settings.KIND_IMAGE, "registry.example/node:v1");
    assertThat(KindControlPlane.image("1.37.2", kind(), image -> true))
        .isEqualTo("registry.example/node:v1");
  }

  @Test
  void theBuilderWinsOverTheSetting() {
    System.setProperty(Settings.KIND_IMAGE, "registry.example/node:v1");
    ControlPlaneOptions options =
        ControlPlaneOptions.builder()
            .withKubernetesVersion("1.37.2")
            .withBackend(BackendOptions.kind().withImage("registry.example/node:v2"))
            .build();
    assertThat(
            KindControlPlane.image(
                "1.37.2", options.backendOptions(BackendOptions.Kind.class), image -> true))
        .isEqualTo("registry.example/node:v2");
  }

  // The settings are read when the options are built, as at every entry point.
  private static BackendOptions.Kind kind() {
    return SettingsResolver.resolve(ControlPlaneOptions.builder().withBackend(Backend.KIND).build())
        .backendOptions(BackendOptions.Kind.class);
  }

  @Test
  void reusedClustersAreNamedByImageOthersByJvmAndCount() {
    String pid = String.valueOf(ProcessHandle.current().pid());
    assertThat(KindControlPlane.clusterName("kube-harness/kind-node:v1.37.2", true))
        .isEqualTo(KindControlPlane.clusterName("kube-harness/kind-node:v1.37.2", true))
        .isNotEqualTo(KindControlPlane.clusterName("kindest/node:v1.37.2", true))
        .startsWith("kube-harness-reuse-");
    String first = KindControlPlane.clusterName("any", false);
    String second = KindControlPlane.clusterName("any", false);
    assertThat(first).startsWith("kube-harness-" + pid + "-").isNotEqualTo(second);
    // kind names its node container <cluster>-control-plane: a DNS label of at most 63.
    assertThat(first + "-control-plane").matches("[a-z0-9-]{1,63}");
  }
}
