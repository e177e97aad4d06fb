package io.github.kubeharness.samples.greeting;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.quarkus.InjectKubeHarness;
import io.github.kubeharness.quarkus.KubeHarness;
import io.github.kubeharness.quarkus.WithKubeHarness;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * Other test resources, so Quarkus restarts the application: it runs as cluster-admin here (no
 * serviceAccount), on the same control plane as {@link GreetingOperatorIT}'s application.
 */
@QuarkusTest
@WithKubeHarness(profile = "standard")
class SharedControlPlaneIT {

  @InjectKubeHarness KubeHarness kube;

  @Test
  void theRestartedApplicationSharesTheControlPlane() {
    // GreetingOperatorIT records its own too: whichever class runs second sees both.
    assertThat(SeenApiServers.record(kube.controlPlane().apiServerUrl())).hasSize(1);
    kube.client().resources(Greeting.class).resource(Greeting.named("admin", "as admin")).create();
    eventually(kube.client().configMaps().withName("admin"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "as admin"));
  }
}
