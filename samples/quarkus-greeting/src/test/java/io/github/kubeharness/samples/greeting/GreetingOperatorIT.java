package io.github.kubeharness.samples.greeting;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.quarkus.InjectKubeHarness;
import io.github.kubeharness.quarkus.KubeHarness;
import io.github.kubeharness.quarkus.WithKubeHarness;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The real application — QOSDK's operator, its configuration, its client bean — against a real API
 * server, under its own RBAC (config/rbac), each test in a namespace of its own.
 */
// snippet:quarkus-test
@QuarkusTest
@WithKubeHarness(
    profile = "standard", // garbage collection: a deleted Greeting takes its ConfigMap along
    manifests = "config/rbac",
    serviceAccount = "greeting-system/greeting-operator")
class GreetingOperatorIT {

  @InjectKubeHarness KubeHarness kube;

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

  @Inject KubernetesClient applicationClient;

  @Test
  void sharesItsControlPlaneWithTheModulesOtherTestClasses() {
    // AdminGreetingIT records its own: whichever class runs second sees both.
    ApiServersSeen.record(GreetingOperatorIT.class, kube.controlPlane().apiServerUrl());
    Map<String, String> seen = ApiServersSeen.byTestClass();
    assertThat(Set.copyOf(seen.values())).as("API servers by test class: %s", seen).hasSize(1);
    assertThat(applicationClient.getMasterUrl().toString())
        .startsWith(kube.controlPlane().apiServerUrl());
  }

  @Test
  void deletingAGreetingDeletesItsConfigMap() {
    kube.client().resources(Greeting.class).resource(Greeting.named("bye", "Bye!")).create();
    eventually(kube.client().configMaps().withName("bye")).exists();

    kube.client().resources(Greeting.class).withName("bye").delete();

    eventually(kube.client().configMaps().withName("bye")).isDeleted();
  }

  @Test
  void theApplicationActsAsItsOwnServiceAccount() {
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
