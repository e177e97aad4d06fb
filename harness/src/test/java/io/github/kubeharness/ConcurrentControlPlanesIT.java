package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.launch.ControlPlanes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Several control planes in one JVM: started at once, no port clash, no shared state. */
@BackendSensitive
class ConcurrentControlPlanesIT {

  @Test
  void threeControlPlanesStartedConcurrentlyAreIndependent() throws Exception {
    List<ControlPlane> planes = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      planes.add(
          ControlPlanes.create(ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).build()));
    }
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      CompletableFuture.allOf(
              planes.stream()
                  .map(p -> CompletableFuture.runAsync(p::start, pool))
                  .toArray(CompletableFuture[]::new))
          .get();

      assertThat(planes).allSatisfy(p -> assertThat(p.isRunning()).isTrue());
      assertThat(planes.stream().map(ControlPlane::apiServerUrl).distinct()).hasSize(3);

      try (KubernetesClient first = planes.get(0).newClient();
          KubernetesClient second = planes.get(1).newClient()) {
        first
            .namespaces()
            .resource(
                new NamespaceBuilder()
                    .withNewMetadata()
                    .withName("only-in-first")
                    .endMetadata()
                    .build())
            .create();
        assertThat(second.namespaces().withName("only-in-first").get()).isNull();
      }
    } finally {
      pool.shutdown();
      planes.forEach(ControlPlane::stop);
    }
  }
}
