package com.example.memcached;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.junit.ControllerTest;
import org.junit.jupiter.api.Test;

/** The README's quick start, as an operator project writes it: own CRD, own RBAC, a Cleaner. */
@ControllerTest(
    crds = "classpath:crds/memcacheds.cache.example.com.yaml",
    reconcilers = MemcachedReconciler.class,
    rbac = "target/test-classes/config/rbac")
class MemcachedReconcilerIT {

  KubernetesClient client;

  @Test
  void createsADeploymentOfTheRequestedSize() {
    Memcached memcached = client.resource(Memcached.of("cache", 3)).create();

    Deployment deployment = eventually(client.apps().deployments().withName("cache")).exists();
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(3);
    eventually(client.apps().deployments().withName("cache")).isOwnedBy(memcached);
  }

  @Test
  void cleanerRunsBeforeTheResourceGoes(MemcachedReconciler reconciler) {
    client.resource(Memcached.of("gone", 1)).create();
    eventually(client.resources(Memcached.class).withName("gone"))
        .satisfies(m -> assertThat(m.getMetadata().getFinalizers()).isNotEmpty());

    client.resources(Memcached.class).withName("gone").delete();

    eventually(client.resources(Memcached.class).withName("gone")).isDeleted();
    assertThat(reconciler.cleanups).hasValue(1);
  }

  @Test
  void theApiServerValidatesTheResource() {
    assertThat(
            org.assertj.core.api.Assertions.catchThrowableOfType(
                KubernetesClientException.class,
                () -> client.resource(Memcached.of("huge", 50)).create()))
        .satisfies(e -> assertThat(e.getCode()).isEqualTo(422))
        .hasMessageContaining("spec.size");
  }
}
