package io.github.kubeharness.internal.junit;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

class ClasspathCheckTest {

  @Test
  void mixedFabric8VersionsFailWithTheBomToImport() {
    assertThatThrownBy(
            () ->
                ClasspathCheck.requireOneFabric8Version(
                    Map.of("kubernetes-client", "7.5.2", "kubernetes-client-api", "7.3.1")))
        .hasMessageContaining("kubernetes-client 7.5.2")
        .hasMessageContaining("kubernetes-client-api 7.3.1")
        .hasMessageContaining("io.fabric8:kubernetes-client-bom (for example 7.5.2)");
  }

  @Test
  void oneVersionPasses() {
    assertThatCode(
            () ->
                ClasspathCheck.requireOneFabric8Version(
                    Map.of("kubernetes-client", "7.10.0", "kubernetes-client-api", "7.10.0")))
        .doesNotThrowAnyException();
  }

  @Test
  void mixedVersionsWithFabric8EightSuggestTheSupportedOne() {
    assertThatThrownBy(
            () ->
                ClasspathCheck.requireOneFabric8Version(
                    Map.of("kubernetes-client", "8.0.0", "kubernetes-client-api", "7.3.1")))
        .hasMessageContaining("io.fabric8:kubernetes-client-bom (for example 7.3.1)");
  }

  @Test
  void fabric8EightIsRefusedWithTheSupportedRangeWhatWasFoundAndTheFix() {
    assertThatThrownBy(
            () ->
                ClasspathCheck.requireSupportedFabric8(
                    Map.of("kubernetes-client", "8.0.0", "kubernetes-client-api", "8.0.0")))
        .isInstanceOf(ExtensionConfigurationException.class)
        .hasMessageContaining("kubernetes-client 8.0.0")
        .hasMessageContaining("kubernetes-client-api 8.0.0")
        .hasMessageContaining("supports fabric8 kubernetes-client 7.x from 7.3")
        .hasMessageContaining("Jackson 3")
        .hasMessageContaining("import io.fabric8:kubernetes-client-bom 7.5.2");
  }

  @Test
  void fabric8SevenPassesTheVersionCheck() {
    assertThatCode(
            () ->
                ClasspathCheck.requireSupportedFabric8(
                    Map.of("kubernetes-client", "7.3.1", "kubernetes-client-api", "7.3.1")))
        .doesNotThrowAnyException();
    assertThatCode(
            () -> ClasspathCheck.requireSupportedFabric8(Map.of("kubernetes-client-api", "7.10.2")))
        .doesNotThrowAnyException();
  }

  @Test
  void theClasspathOfThisBuildIsUsable() {
    assertThatCode(ClasspathCheck::requireUsableFabric8).doesNotThrowAnyException();
  }

  @Test
  void versionsCompareNumerically() {
    org.assertj.core.api.Assertions.assertThat(ClasspathCheck.compareVersions("7.10.0", "7.9.1"))
        .isPositive();
  }
}
