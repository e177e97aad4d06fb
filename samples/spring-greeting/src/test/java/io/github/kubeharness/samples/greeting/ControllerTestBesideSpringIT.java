package io.github.kubeharness.samples.greeting;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import org.junit.jupiter.api.Test;

/**
 * A {@code @ControllerTest} class in the same test JVM as the Spring ones, on the same options:
 * it runs on their control plane (whichever class runs second sees both API servers as one).
 */
@ControllerTest(profile = "standard", crdClasses = Greeting.class)
class ControllerTestBesideSpringIT {

  @Test
  void sharesTheControlPlaneOfTheSpringContexts(ControlPlane controlPlane) {
    SharedControlPlaneIT.API_SERVERS.add(controlPlane.apiServerUrl());
    assertThat(SharedControlPlaneIT.API_SERVERS).hasSize(1);
  }
}
