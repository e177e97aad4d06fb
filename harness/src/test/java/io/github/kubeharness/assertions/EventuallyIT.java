package io.github.kubeharness.assertions;

import static io.github.kubeharness.assertions.KubeAssertions.assertThatResource;
import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static io.github.kubeharness.assertions.Widgets.condition;
import static io.github.kubeharness.assertions.Widgets.setConditions;
import static io.github.kubeharness.assertions.Widgets.widget;
import static io.github.kubeharness.assertions.Widgets.widgets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.Widget;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code eventually(...)} against a real API server, with a helper thread as the controller. */
@ControllerTest(crds = "src/test/resources/crds")
class EventuallyIT {

  KubernetesClient client;

  @Test
  void existsReturnsTheObjectOnceItIsCreated() throws Exception {
    ConfigMap cm;
    try (Later controller = Later.soon(() -> createConfigMap("demo", Map.of("k", "v")))) {
      cm = eventually(client.configMaps().withName("demo")).exists();
    }
    assertThat(cm.getMetadata().getNamespace()).isEqualTo(client.getNamespace());
    assertThat(cm.getData()).containsEntry("k", "v");
  }

  @Test
  void satisfiesWaitsForALaterUpdate() throws Exception {
    createConfigMap("demo", Map.of("k", "old"));
    ConfigMap cm;
    try (Later controller =
        Later.soon(
            () ->
                client
                    .configMaps()
                    .withName("demo")
                    .edit(c -> new ConfigMapBuilder(c).addToData("k", "v").build()))) {
      cm =
          eventually(client.configMaps().withName("demo"))
              .satisfies(c -> assertThat(c.getData()).containsEntry("k", "v"));
    }
    assertThat(cm.getData()).containsEntry("k", "v");
  }

  @Test
  void hasConditionReadsStatusConditionsOfAGenericResource() throws Exception {
    widgets(client).resource(widget("w")).create();
    GenericKubernetesResource ready;
    try (Later controller =
        Later.soon(
            () -> {
              setConditions(client, "w", condition("Ready", "False", "Degraded", "crashed"));
              setConditions(client, "w", condition("Ready", "True", "Running", "all good"));
            })) {
      ready = eventually(widgets(client).withName("w")).hasCondition("Ready", "True");
    }
    assertThatResource(ready).hasCondition("Ready", "True", "Running");
  }

  @Test
  // The typed Widget of the controller tests: conditions are read from any type.
  void hasConditionWithReasonOnATypedCustomResource() throws Exception {
    widgets(client).resource(widget("w")).create();
    Widget degraded;
    try (Later controller =
        Later.soon(
            () -> setConditions(client, "w", condition("Ready", "False", "Degraded", "crashed")))) {
      degraded =
          eventually(client.resources(Widget.class).withName("w"))
              .hasCondition("Ready", "False", "Degraded");
    }
    assertThat(degraded.getStatus().conditions).extracting("reason").containsExactly("Degraded");
  }

  @Test
  void isDeletedWaitsForTheDeletion() throws Exception {
    createConfigMap("doomed", Map.of());
    try (Later controller = Later.soon(() -> client.configMaps().withName("doomed").delete())) {
      eventually(client.configMaps().withName("doomed")).isDeleted();
    }
    assertThat(client.configMaps().withName("doomed").get()).isNull();
  }

  @Test
  void isDeletedPassesForAnObjectThatNeverExisted() {
    eventually(client.configMaps().withName("never")).within(Duration.ofSeconds(5)).isDeleted();
  }

  @Test
  void isOwnedByMatchesTheOwnersUid() throws Exception {
    GenericKubernetesResource owner = widgets(client).resource(widget("owner")).create();
    Deployment deployment;
    try (Later controller = Later.soon(() -> createDeploymentOwnedBy("d", owner))) {
      deployment = eventually(client.apps().deployments().withName("d")).isOwnedBy(owner);
    }
    assertThat(deployment.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(ref -> assertThat(ref.getUid()).isEqualTo(owner.getMetadata().getUid()));
  }

  @Test
  void isOwnedByRejectsAnOwnerThatWasNeverCreated() {
    assertThatThrownBy(() -> eventually(client.configMaps().withName("x")).isOwnedBy(widget("w")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no metadata.uid");
  }

  @Test
  void instanceFormLooksInTheClientsNamespace() throws Exception {
    KubeAssertions assertions = new KubeAssertions(client, Duration.ofSeconds(10));
    ConfigMap cm;
    try (Later controller = Later.soon(() -> createConfigMap("injected", Map.of("a", "b")))) {
      cm = assertions.eventually(ConfigMap.class, "injected").exists();
    }
    assertThat(cm.getMetadata().getNamespace()).isEqualTo(client.getNamespace());
    assertions.consistently(ConfigMap.class, "other").during(Duration.ofMillis(300)).doesNotExist();
  }

  private void createConfigMap(String name, Map<String, String> data) {
    Widgets.createConfigMap(client, name, data);
  }

  private void createDeploymentOwnedBy(String name, GenericKubernetesResource owner) {
    client
        .apps()
        .deployments()
        .resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .addNewOwnerReference()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .withNewSpec()
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("app")
                .withImage("registry.invalid/app:1")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
  }
}
