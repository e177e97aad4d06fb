package io.github.kubeharness.samples.greeting;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.spring.EnableKubeHarness;
import io.github.kubeharness.spring.KubeHarness;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The real application — its own Operator bean, its own client, its reconciler beans — against a
 * real API server, under its own RBAC (config/rbac), each test in a namespace of its own.
 */
// snippet:spring-test
@SpringBootTest
@EnableKubeHarness(
    profile = "standard", // garbage collection: a deleted Greeting takes its ConfigMap along
    crdClasses = Greeting.class,
    manifests = "config/rbac",
    serviceAccount = "greeting-system/greeting-operator")
class GreetingOperatorIT {

  @Autowired KubeHarness kube;

  @Test
  void publishesTheMessageAndReportsReady() {
    Greeting hello =
        kube.client().resources(Greeting.class).resource(Greeting.named("hello", "Hi!")).create();

    eventually(kube.client().configMaps().withName("hello"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "Hi!"));
    eventually(kube.client().configMaps().withName("hello")).isOwnedBy(hello);
    eventually(kube.client().resources(Greeting.class).withName("hello"))
        .satisfies(g -> assertThat(g.getStatus().ready).isTrue());
  }
  // end-snippet

  @Test
  void sharesItsControlPlaneWithTheOtherCachedContext() {
    SharedControlPlaneIT.API_SERVERS.add(kube.controlPlane().apiServerUrl());
    assertThat(SharedControlPlaneIT.API_SERVERS).hasSize(1);
  }

  @Test
  void deletingAGreetingDeletesItsConfigMap() {
    kube.client().resources(Greeting.class).resource(Greeting.named("bye", "Bye!")).create();
    eventually(kube.client().configMaps().withName("bye")).exists();

    kube.client().resources(Greeting.class).withName("bye").delete();

    eventually(kube.client().configMaps().withName("bye")).isDeleted();
  }

  @Test
  void theApplicationActsAsItsOwnServiceAccount(@Autowired KubernetesClient applicationClient) {
    // Its ClusterRole grants ConfigMaps and Greetings, nothing on Secrets.
    assertThatThrownBy(() -> applicationClient.secrets().inNamespace(kube.namespace()).list())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403))
        .hasMessageContaining("system:serviceaccount:greeting-system:greeting-operator");
    ConfigMap own =
        applicationClient
            .configMaps()
            .inNamespace(kube.namespace())
            .resource(new ConfigMapBuilder().withNewMetadata().withName("allowed").endMetadata().build())
            .create();
    assertThat(own.getMetadata().getUid()).isNotBlank();
  }
}
