package com.example.memcached.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.memcached.Memcached;
import com.example.memcached.MemcachedReconciler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two classes that pass only when JUnit runs them at the same time (ParallelClassesIT): each
 * creates a Memcached of the same name, then waits for the other to be running too before it checks
 * its own Deployment.
 */
public final class ParallelPairScenarios {

  /** Both classes count down here; neither goes on until the other has. */
  public static volatile CountDownLatch bothRunning = new CountDownLatch(2);

  private ParallelPairScenarios() {}

  static void createsItsDeployment(KubernetesClient client, int size) throws Exception {
    client.resource(Memcached.of("same-name", size)).create();
    bothRunning.countDown();
    assertThat(bothRunning.await(60, TimeUnit.SECONDS))
        .as("the other class ran meanwhile")
        .isTrue();
    eventually(client.apps().deployments().withName("same-name"))
        .satisfies(d -> assertThat(d.getSpec().getReplicas()).isEqualTo(size));
  }

  @ControllerTest(
      crds = "classpath:crds/memcacheds.cache.example.com.yaml",
      reconcilers = MemcachedReconciler.class)
  public static class One {
    KubernetesClient client;

    @Test
    void createsItsDeployment() throws Exception {
      ParallelPairScenarios.createsItsDeployment(client, 1);
    }
  }

  @ControllerTest(
      crds = "classpath:crds/memcacheds.cache.example.com.yaml",
      reconcilers = MemcachedReconciler.class)
  public static class Two {
    KubernetesClient client;

    @Test
    void createsItsDeployment() throws Exception {
      ParallelPairScenarios.createsItsDeployment(client, 2);
    }
  }
}
