package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.launch.ControlPlanes;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A real k3s cluster: pods run. Needs the rancher/k3s image and privileged containers, so it is
 * tagged "k3s": `make test` excludes it and .github/workflows/ci.yml runs it on a GitHub runner.
 */
@Tag("k3s")
class K3sBackendIT {

  @Test
  void podsReallyRunOnK3s() {
    try (ControlPlane cp =
        ControlPlanes.create(ControlPlaneOptions.builder().withBackend(Backend.K3S).build())) {
      cp.start();
      try (KubernetesClient client = cp.newClient()) {
        client
            .pods()
            .inNamespace("default")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("hello")
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("pause")
                    .withImage("registry.k8s.io/pause:3.10")
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
        await()
            .atMost(Duration.ofMinutes(3))
            .untilAsserted(
                () ->
                    assertThat(
                            client
                                .pods()
                                .inNamespace("default")
                                .withName("hello")
                                .get()
                                .getStatus()
                                .getPhase())
                        .isEqualTo("Running"));
      }
    }
  }
}
