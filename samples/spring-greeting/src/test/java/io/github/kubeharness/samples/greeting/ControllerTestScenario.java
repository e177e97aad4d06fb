package io.github.kubeharness.samples.greeting;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import org.junit.jupiter.api.Test;

/**
 * A plain {@code @ControllerTest} class on the options of the Spring contexts here (run by
 * OneControlPlaneIT, not by the build): it says which API server it was given.
 */
@ControllerTest(profile = "standard", crdClasses = Greeting.class)
class ControllerTestScenario {

  /** The API server the last run of this class was given. */
  static volatile String apiServer;

  KubernetesClient client;

  @Test
  void recordsItsApiServer(ControlPlane controlPlane) {
    apiServer = controlPlane.apiServerUrl();
    assertThat(client.resources(Greeting.class).list().getItems()).isNotNull();
  }
}
