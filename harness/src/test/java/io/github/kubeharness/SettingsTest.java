package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.settings.HarnessSettings;
import io.github.kubeharness.settings.Setting;
import io.github.kubeharness.settings.SettingsResolver;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The settings registry: complete, and every bad value named with what it takes. */
class SettingsTest {

  @AfterEach
  void clear() {
    HarnessSettings.ALL.forEach(s -> System.clearProperty(s.property()));
  }

  @Test
  void everySettingConstantIsRegistered() {
    String[] constants =
        Arrays.stream(Settings.class.getFields())
            .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class)
            .map(SettingsTest::value)
            .toArray(String[]::new);
    assertThat(HarnessSettings.ALL.stream().filter(Setting::hasProperty))
        .extracting(Setting::property)
        .containsOnly(constants);
  }

  @Test
  void aBadNumberNamesTheSettingAndWhatItTakes() {
    System.setProperty(Settings.START_TIMEOUT_SECONDS, "abc");
    assertThatThrownBy(() -> SettingsResolver.resolve(ControlPlaneOptions.defaults()))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("'abc'")
        .hasMessageContaining("kubeharness.start.timeout.seconds")
        .hasMessageContaining("KUBE_HARNESS_START_TIMEOUT_SECONDS")
        .hasMessageContaining("positive number of seconds");
  }

  @Test
  void aSeedThatIsNoWholeNumberNamesTheSetting() {
    System.setProperty(Settings.SEED, "0x2a");
    assertThatThrownBy(() -> HarnessSettings.SEED.resolve())
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("'0x2a'")
        .hasMessageContaining("kubeharness.seed")
        .hasMessageContaining("whole number");
    System.setProperty(Settings.SEED, "-4886093534873677997");
    assertThat(HarnessSettings.SEED.resolve()).isEqualTo(-4886093534873677997L);
  }

  @Test
  void aBadBooleanIsNotSilentlyFalse() {
    System.setProperty(Settings.OFFLINE, "yes");
    assertThatThrownBy(() -> SettingsResolver.resolve(ControlPlaneOptions.defaults()))
        .hasMessageContaining("kubeharness.offline")
        .hasMessageContaining("true or false");
  }

  @Test
  void aBadChoiceListsTheChoices() {
    System.setProperty(Settings.NETWORK, "wifi");
    assertThatThrownBy(() -> SettingsResolver.resolve(ControlPlaneOptions.defaults()))
        .hasMessageContaining("Unknown network mode 'wifi'")
        .hasMessageContaining("bridge, host");
  }

  @Test
  void theOptionsReadNoSettingTheResolverDoesAndWhatTheCodeSaidWins() {
    System.setProperty(Settings.START_TIMEOUT_SECONDS, "2.5");
    System.setProperty(Settings.KUBERNETES_VERSION, "1.36.3");
    ControlPlaneOptions asked =
        ControlPlaneOptions.builder().withKubernetesVersion("1.35.1").build();
    assertThat(asked.startTimeout()).isEqualTo(ControlPlaneOptions.DEFAULT_START_TIMEOUT);
    ControlPlaneOptions resolved = SettingsResolver.resolve(asked);
    assertThat(resolved.startTimeout().toMillis()).isEqualTo(2500);
    assertThat(resolved.kubernetesVersion()).isEqualTo("1.35.1");
  }

  @Test
  void fractionsOfSecondsAreTaken() {
    System.setProperty(Settings.START_TIMEOUT_SECONDS, "2.5");
    assertThat(SettingsResolver.resolve(ControlPlaneOptions.defaults()).startTimeout().toMillis())
        .isEqualTo(2500);
  }

  @Test
  void dashesBecomeUnderscoresInEnvironmentNames() {
    assertThat(Settings.environmentVariable(Settings.CONTAINER_CONTROLLER_MANAGER_IMAGE))
        .isEqualTo("KUBE_HARNESS_CONTAINER_CONTROLLER_MANAGER_IMAGE");
  }

  @Test
  void reuseServesKindAndTheOldKindSwitchStillWorksThere() {
    try (var old = TemporaryProperty.set("kubeharness.kind.reuse", "true")) {
      assertThat(
              SettingsResolver.resolve(
                      ControlPlaneOptions.builder().withBackend(Backend.KIND).build())
                  .reuse())
          .isTrue();
      // The old switch was kind's alone: it keeps no local control plane.
      assertThat(
              SettingsResolver.resolve(
                      ControlPlaneOptions.builder().withBackend(Backend.LOCAL).build())
                  .reuse())
          .isFalse();
    }
    System.setProperty(Settings.REUSE, "true");
    assertThat(
            SettingsResolver.resolve(
                    ControlPlaneOptions.builder().withBackend(Backend.KIND).build())
                .reuse())
        .isTrue();
  }

  @Test
  void aBackendImageSetByTheSettingIsResolvedIntoTheOptionsOnce() {
    System.setProperty(Settings.KIND_IMAGE, "registry.example/node:v1");
    ControlPlaneOptions options = kind();
    System.clearProperty(Settings.KIND_IMAGE);
    assertThat(options.backendOptions(BackendOptions.Kind.class).image())
        .contains("registry.example/node:v1");
    // Changing one option later reads no setting again: unset stays unset (the backend's default).
    ControlPlaneOptions unset = kind();
    System.setProperty(Settings.KIND_IMAGE, "registry.example/node:v2");
    assertThat(
            unset.toBuilder()
                .withKubernetesVersion("1.36.3")
                .build()
                .backendOptions(BackendOptions.Kind.class)
                .image())
        .isEmpty();
  }

  @Test
  void aContainerRecordGivenInCodeGetsOnlyItsUnsetImagesFromTheSettings() {
    System.setProperty(Settings.CONTAINER_ETCD_IMAGE, "registry.example/etcd:from-setting");
    System.setProperty(Settings.CONTAINER_APISERVER_IMAGE, "registry.example/apiserver:lost");
    BackendOptions.Container given =
        BackendOptions.container().withApiServerImage("registry.example/apiserver:from-code");

    BackendOptions.Container named =
        SettingsResolver.resolve(ControlPlaneOptions.builder().withBackend(given).build())
            .backendOptions(BackendOptions.Container.class);
    // The same record inside auto's, as a container choice would run with it.
    BackendOptions.Container inAuto =
        SettingsResolver.resolve(
                ControlPlaneOptions.builder()
                    .withBackend(new BackendOptions.Auto(BackendOptions.local(), given, false))
                    .build())
            .backendOptions(BackendOptions.Auto.class)
            .container();

    for (BackendOptions.Container resolved : List.of(named, inAuto)) {
      assertThat(resolved.apiServerImage()).contains("registry.example/apiserver:from-code");
      assertThat(resolved.etcdImage()).contains("registry.example/etcd:from-setting");
      assertThat(resolved.controllerManagerImage()).isEmpty();
    }
  }

  @Test
  void aBackendReadsItsOwnSettingsOnly() {
    System.setProperty(Settings.KIND_IMAGE, "registry.example/node:v1");
    System.setProperty(Settings.SIMULATED_NODES, "3");
    ControlPlaneOptions local =
        SettingsResolver.resolve(ControlPlaneOptions.builder().withBackend(Backend.LOCAL).build());
    assertThat(local.backendOptions()).isEqualTo(BackendOptions.local().withSimulatedNodes(3));
    assertThat(local.backendOptions(BackendOptions.Local.class).simulatedNodes()).isEqualTo(3);
    assertThatThrownBy(() -> local.backendOptions(BackendOptions.Kind.class))
        .hasMessageContaining("local backend");
  }

  @Test
  void aValueGivenAtAnEntryPointWinsOverThePropertyAndIsNamedWhenBad() {
    System.setProperty(Settings.PROFILE, "standard");
    // The backend named: the suite also runs with KUBE_HARNESS_BACKEND=container, which runs no
    // simulated profile.
    assertThat(
            SettingsResolver.resolve(
                    ControlPlaneOptions.builder().withBackend(Backend.LOCAL).build(),
                    Map.of(HarnessSettings.PROFILE, Map.entry("simulated", "--profile")))
                .profile())
        .isEqualTo(Profile.SIMULATED);
    assertThatThrownBy(
            () ->
                SettingsResolver.resolve(
                    ControlPlaneOptions.builder().withBackend(Backend.LOCAL).build(),
                    Map.of(HarnessSettings.PROFILE, Map.entry("tiny", "--profile"))))
        .hasMessageContaining("'tiny' in --profile")
        .hasMessageContaining("minimal, standard, simulated");
  }

  @Test
  void whatTheBackendCannotDoIsRefusedWhenTheOptionsAreBuiltNamingTheirOrigin() {
    assertThatThrownBy(
            () ->
                SettingsResolver.resolve(
                    ControlPlaneOptions.builder()
                        .withOrigin("kube-harness up")
                        .withBackend(Backend.KIND)
                        .withProfile(Profile.MINIMAL)
                        .build()))
        .hasMessageStartingWith("kube-harness up: the minimal profile cannot run on the kind");
    assertThatThrownBy(
            () ->
                SettingsResolver.resolve(
                    ControlPlaneOptions.builder()
                        .withBackend(BackendOptions.container())
                        .withReuse(true)
                        .build()))
        .hasMessageStartingWith("The control plane options: the container backend")
        .hasMessageContaining("Backends that can: local or kind");
    // A backend set outside the code (a forgotten KUBE_HARNESS_BACKEND) is named with its source.
    System.setProperty(Settings.BACKEND, "container");
    assertThatThrownBy(
            () ->
                SettingsResolver.resolve(
                    ControlPlaneOptions.builder().withProfile(Profile.SIMULATED).build()))
        .hasMessageStartingWith(
            "The control plane options (backend from system property kubeharness.backend=container):"
                + " the simulated profile cannot run on the container backend");
  }

  private static ControlPlaneOptions kind() {
    return SettingsResolver.resolve(
        ControlPlaneOptions.builder().withBackend(Backend.KIND).build());
  }

  private static String value(Field field) {
    try {
      return (String) field.get(null);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }
}
