package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The settings registry: complete, and every bad value named with what it takes. */
class SettingsTest {

  @AfterEach
  void clear() {
    Settings.ALL.forEach(s -> System.clearProperty(s.property()));
  }

  @Test
  void everySettingConstantIsRegistered() {
    String[] constants =
        Arrays.stream(Settings.class.getFields())
            .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class)
            .map(SettingsTest::value)
            .toArray(String[]::new);
    assertThat(Settings.ALL).extracting(Setting::property).containsOnly(constants);
  }

  @Test
  void aBadNumberNamesTheSettingAndWhatItTakes() {
    System.setProperty(Settings.START_TIMEOUT_SECONDS, "abc");
    assertThatThrownBy(ControlPlaneOptions::defaults)
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("'abc'")
        .hasMessageContaining("kubeharness.start.timeout.seconds")
        .hasMessageContaining("KUBE_HARNESS_START_TIMEOUT_SECONDS")
        .hasMessageContaining("positive number of seconds");
  }

  @Test
  void aBadBooleanIsNotSilentlyFalse() {
    System.setProperty(Settings.OFFLINE, "yes");
    assertThatThrownBy(ControlPlaneOptions::defaults)
        .hasMessageContaining("kubeharness.offline")
        .hasMessageContaining("true or false");
  }

  @Test
  void aBadChoiceListsTheChoices() {
    System.setProperty(Settings.NETWORK, "wifi");
    assertThatThrownBy(ControlPlaneOptions::defaults)
        .hasMessageContaining("Unknown network mode 'wifi'")
        .hasMessageContaining("bridge, host");
  }

  @Test
  void fractionsOfSecondsAreTaken() {
    System.setProperty(Settings.START_TIMEOUT_SECONDS, "2.5");
    assertThat(ControlPlaneOptions.defaults().startTimeout().toMillis()).isEqualTo(2500);
  }

  @Test
  void dashesBecomeUnderscoresInEnvironmentNames() {
    assertThat(Settings.environmentVariable(Settings.CONTAINER_CONTROLLER_MANAGER_IMAGE))
        .isEqualTo("KUBE_HARNESS_CONTAINER_CONTROLLER_MANAGER_IMAGE");
  }

  private static String value(Field field) {
    try {
      return (String) field.get(null);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }
}
