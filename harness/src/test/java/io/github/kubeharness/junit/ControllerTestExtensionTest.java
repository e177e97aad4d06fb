package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.Profile;
import io.github.kubeharness.Settings;
import io.github.kubeharness.TemporaryProperty;
import io.github.kubeharness.internal.junit.ExtensionConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * How the annotation is read: an attribute beats every setting, except the version matrix, which
 * the setting replaces (CI widens or narrows it); contradictions are refused before any cluster.
 */
class ControllerTestExtensionTest {

  @ControllerTest(profile = "standard")
  static class AsksForStandard {}

  @Test
  void theAnnotationAttributeBeatsTheSystemProperty() {
    try (var profile = TemporaryProperty.set(Settings.PROFILE, "minimal")) {
      ExtensionConfig config = ControllerTestExtension.read(AsksForStandard.class);
      assertThat(config.controlPlane().profile()).isEqualTo(Profile.STANDARD);
    }
  }

  @ControllerTest(kubernetesVersions = {"1.36", " 1.37 ", "1.36"})
  static class AsksForAMatrix {}

  @ControllerTest(
      kubernetesVersion = "1.37.2",
      kubernetesVersions = {"1.36", "1.37"})
  static class AsksForBoth {}

  @ControllerTest(
      backend = "existing",
      kubernetesVersions = {"1.36", "1.37"})
  static class AsksForAMatrixOnTheExistingBackend {}

  @Test
  void theMatrixIsTheClassesUnlessTheSettingReplacesIt() {
    ExtensionConfig declared = ControllerTestExtension.read(AsksForAMatrix.class);
    assertThat(declared.matrix()).containsExactly("1.36", "1.37");
    assertThat(declared.matrixDeclared()).isTrue();

    try (var versions = TemporaryProperty.set(Settings.KUBERNETES_VERSIONS, "1.35, 1.37.2")) {
      assertThat(ControllerTestExtension.read(AsksForAMatrix.class).matrix())
          .containsExactly("1.35", "1.37.2");
      assertThat(ControllerTestExtension.read(AsksForStandard.class).matrix())
          .containsExactly("1.35", "1.37.2");
      assertThat(ControllerTestExtension.read(AsksForStandard.class).matrixDeclared()).isFalse();
    }
  }

  @Test
  void oneVersionAndAMatrixTogetherAreRefused() {
    assertThatThrownBy(() -> ControllerTestExtension.read(AsksForBoth.class))
        .isInstanceOf(ExtensionConfigurationException.class)
        .hasMessageContaining("sets both kubernetesVersion and kubernetesVersions");
  }

  @Test
  void aMatrixOnTheExistingBackendIsRefused() {
    assertThatThrownBy(() -> ControllerTestExtension.read(AsksForAMatrixOnTheExistingBackend.class))
        .isInstanceOf(ExtensionConfigurationException.class)
        .hasMessageContaining("the existing backend cannot give a Kubernetes version matrix")
        .hasMessageContaining("Backends that can: local or container or k3s or kind");
  }
}
