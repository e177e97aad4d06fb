package io.github.kubeharness.samples.greeting;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.quarkus.InjectKubeHarness;
import io.github.kubeharness.quarkus.KubeHarness;
import io.github.kubeharness.quarkus.WithKubeHarness;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A second test class with other attributes: Quarkus restarts the application for it, here as
 * cluster-admin (no serviceAccount), on the control plane {@link GreetingOperatorIT}'s application
 * ran against.
 */
@QuarkusTest
@WithKubeHarness(profile = "standard", manifests = "config/rbac")
class AdminGreetingIT {

  @InjectKubeHarness KubeHarness kube;

  @Inject KubernetesClient applicationClient;

  @Test
  void theRestartedApplicationRunsOnTheSharedControlPlane() {
    ApiServersSeen.record(AdminGreetingIT.class, kube.controlPlane().apiServerUrl());
    Map<String, String> seen = ApiServersSeen.byTestClass();
    assertThat(Set.copyOf(seen.values())).as("API servers by test class: %s", seen).hasSize(1);
    // The application's own client points at the same API server.
    assertThat(applicationClient.getMasterUrl().toString())
        .startsWith(kube.controlPlane().apiServerUrl());

    kube.client().resources(Greeting.class).resource(Greeting.named("admin", "as admin")).create();
    eventually(kube.client().configMaps().withName("admin"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "as admin"));
  }

  @Test
  void theApplicationIsClusterAdminHere() {
    // GreetingOperatorIT's application, as its ServiceAccount, gets a 403 on the same call.
    assertThat(applicationClient.secrets().inNamespace(kube.namespace()).list().getItems())
        .isEmpty();
  }
}
