package io.github.kubeharness.junit.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import org.junit.jupiter.api.Test;

/**
 * Run by ExistingBackendIT in a JVM whose environment names a cluster (USE_EXISTING_CLUSTER or
 * kubeharness.backend=existing, and KUBECONFIG): the whole @ControllerTest flow on it.
 */
@ControllerTest(crds = "src/test/resources/crds", reconcilers = WidgetReconciler.class)
public class ExistingClusterScenario {

  KubernetesClient client;
  ControlPlane controlPlane;

  @Test
  void runsOnTheClusterTheKubeconfigNames() {
    assertThat(controlPlane.apiServerUrl()).isEqualTo(System.getProperty("expected.server"));
    client.resources(Widget.class).resource(Widget.named("remote", "hi")).create();
    eventually(client.configMaps().withName("remote")).exists();
  }
}
