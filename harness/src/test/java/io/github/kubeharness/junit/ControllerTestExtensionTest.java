package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.Profile;
import io.github.kubeharness.Settings;
import io.github.kubeharness.internal.junit.ExtensionConfig;
import org.junit.jupiter.api.Test;

/** The top of the settings precedence: an annotation attribute beats every setting. */
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
}
