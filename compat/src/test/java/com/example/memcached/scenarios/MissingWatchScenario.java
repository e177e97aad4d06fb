package com.example.memcached.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;

import com.example.memcached.Memcached;
import com.example.memcached.MemcachedReconciler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The operator's role lacks "watch memcacheds": run by ControllerErrorsIT, must fail alone. */
@ControllerTest(
    crds = "classpath:crds/memcacheds.cache.example.com.yaml",
    reconcilers = MemcachedReconciler.class,
    rbac = "target/test-classes/config/rbac-no-watch")
public class MissingWatchScenario {

  KubernetesClient client;

  @Test
  void createsADeployment() {
    client.resource(Memcached.of("unwatched", 1)).create();
    eventually(client.apps().deployments().withName("unwatched"))
        .within(Duration.ofSeconds(5))
        .exists();
  }
}
