package com.example.memcached;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.MatrixTest;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;

/**
 * A version matrix on this module's JUnit (5.10 has test templates, not class templates): each test
 * once per minor, each on an API server of that minor.
 */
@ControllerTest(
    crds = "classpath:crds/memcacheds.cache.example.com.yaml",
    reconcilers = MemcachedReconciler.class,
    kubernetesVersions = {"1.36", "1.37"})
class MemcachedOnTwoVersionsIT {

  private static final Set<String> SERVERS = ConcurrentHashMap.newKeySet();

  KubernetesClient client;
  ControlPlane controlPlane;

  @MatrixTest
  void createsADeploymentOnEveryVersion() {
    SERVERS.add(client.getKubernetesVersion().getGitVersion());
    assertThat(client.getKubernetesVersion().getGitVersion())
        .isEqualTo("v" + controlPlane.kubernetesVersion());

    client.resource(Memcached.of("cache", 2)).create();

    eventually(client.apps().deployments().withName("cache"))
        .satisfies(d -> assertThat(d.getSpec().getReplicas()).isEqualTo(2));
  }

  @AfterAll
  static void ranOnBothMinors() {
    assertThat(SERVERS)
        .hasSize(2)
        .anyMatch(v -> v.startsWith("v1.36."))
        .anyMatch(v -> v.startsWith("v1.37."));
  }
}
