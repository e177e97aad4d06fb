package io.github.kubeharness.internal.junit;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

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
  void theClasspathOfThisBuildIsUsable() {
    assertThatCode(ClasspathCheck::requireUsableFabric8).doesNotThrowAnyException();
  }

  @Test
  void versionsCompareNumerically() {
    org.assertj.core.api.Assertions.assertThat(ClasspathCheck.compareVersions("7.10.0", "7.9.1"))
        .isPositive();
  }
}
