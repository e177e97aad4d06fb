package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.Profile;
import io.github.kubeharness.Settings;
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
    String before = System.getProperty(Settings.PROFILE);
    System.setProperty(Settings.PROFILE, "minimal");
    try {
      ExtensionConfig config = ControllerTestExtension.read(AsksForStandard.class);
      assertThat(config.controlPlane().profile()).isEqualTo(Profile.STANDARD);
    } finally {
      if (before == null) {
        System.clearProperty(Settings.PROFILE);
      } else {
        System.setProperty(Settings.PROFILE, before);
      }
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

    String before = System.getProperty(Settings.KUBERNETES_VERSIONS);
    System.setProperty(Settings.KUBERNETES_VERSIONS, "1.35, 1.37.2");
    try {
      assertThat(ControllerTestExtension.read(AsksForAMatrix.class).matrix())
          .containsExactly("1.35", "1.37.2");
      assertThat(ControllerTestExtension.read(AsksForStandard.class).matrix())
          .containsExactly("1.35", "1.37.2");
      assertThat(ControllerTestExtension.read(AsksForStandard.class).matrixDeclared()).isFalse();
    } finally {
      if (before == null) {
        System.clearProperty(Settings.KUBERNETES_VERSIONS);
      } else {
        System.setProperty(Settings.KUBERNETES_VERSIONS, before);
      }
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
        .hasMessageContaining("the existing backend is one cluster of one version");
  }
}
