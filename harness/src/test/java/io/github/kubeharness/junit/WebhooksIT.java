package io.github.kubeharness.junit;

import static io.github.kubeharness.junit.fixtures.GadgetWebhooks.gadget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.kubeharness.BackendSensitive;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.fixtures.GadgetWebhooks;
import io.github.kubeharness.webhooks.WebhookCall;
import io.github.kubeharness.webhooks.Webhooks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Admission and conversion webhooks served in the test JVM and called by the real API server:
 * defaults filled in on create, invalid objects refused with the handler's message, v1alpha1 and v1
 * converted both ways, and other namespaces left alone.
 */
@BackendSensitive
@ControllerTest(
    crds = "src/test/resources/crds-webhooks",
    webhooks = "src/test/resources/webhooks/gadgets",
    webhookHandlers = GadgetWebhooks.class)
class WebhooksIT {

  KubernetesClient client;
  @TestNamespace String namespace;
  Webhooks webhooks;

  @Test
  void aCreateGetsTheDefaultingWebhooksDefaults() {
    gadgets("v1").resource(gadget("v1", "plain", Map.of("replicas", 2))).create();

    GenericKubernetesResource stored = gadgets("v1").withName("plain").get();
    assertThat(spec(stored)).containsEntry("color", "blue").containsEntry("replicas", 2);
    assertThat(webhooks.calls())
        .map(WebhookCall::toString)
        .anySatisfy(
            call ->
                assertThat(call)
                    .contains("/mutate-test-kubeharness-io-v1-gadget")
                    .contains("CREATE Gadget v1 " + namespace + "/plain")
                    .contains("allowed, patched (add /spec/color)"))
        .anySatisfy(
            call ->
                assertThat(call)
                    .contains("/validate-test-kubeharness-io-v1-gadget")
                    .contains("-> allowed"));
  }

  @Test
  void anInvalidObjectIsRefusedWithTheValidatingWebhooksMessage() {
    assertThatThrownBy(
            () -> gadgets("v1").resource(gadget("v1", "huge", Map.of("replicas", 11))).create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403))
        .hasMessageContaining("vgadget.test.kubeharness.io")
        .hasMessageContaining("replicas 11 is more than 10, the most a Gadget runs");

    gadgets("v1").resource(gadget("v1", "small", Map.of("replicas", 1))).create();
    assertThatThrownBy(
            () ->
                gadgets("v1")
                    .withName("small")
                    .edit(g -> gadget("v1", "small", Map.of("replicas", 20, "color", "red"))))
        .hasMessageContaining("replicas 20 is more than 10");
    assertThat(spec(gadgets("v1").withName("small").get())).containsEntry("replicas", 1);
  }

  @Test
  void objectsConvertBetweenVersionsThroughTheConversionWebhook() {
    gadgets("v1alpha1").resource(gadget("v1alpha1", "old", Map.of("size", 3))).create();

    assertThat(spec(gadgets("v1").withName("old").get()))
        .containsEntry("replicas", 3)
        .doesNotContainKey("size");
    gadgets("v1").withName("old").edit(g -> withSpec(g, "replicas", 4));
    assertThat(spec(gadgets("v1alpha1").withName("old").get()))
        .containsEntry("size", 4)
        .doesNotContainKey("replicas");
    assertThat(webhooks.calls())
        .map(WebhookCall::toString)
        .anySatisfy(
            call ->
                assertThat(call)
                    .contains("/convert")
                    .contains("to test.kubeharness.io/v1")
                    .contains("converted 1 object(s)"))
        .anySatisfy(call -> assertThat(call).contains("to test.kubeharness.io/v1alpha1"));
  }

  @Test
  void objectsInOtherNamespacesNeverReachThisTestsAdmissionWebhooks() {
    String other = "other-" + namespace.substring(namespace.length() - 5);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(other).endMetadata().build())
        .create();
    try {
      client
          .genericKubernetesResources("test.kubeharness.io/v1", "Gadget")
          .inNamespace(other)
          .resource(gadget("v1", "elsewhere", Map.of("replicas", 50)))
          .create();
      GenericKubernetesResource stored =
          client
              .genericKubernetesResources("test.kubeharness.io/v1", "Gadget")
              .inNamespace(other)
              .withName("elsewhere")
              .get();
      assertThat(spec(stored)).containsEntry("replicas", 50).doesNotContainKey("color");
      // Conversion is cluster-wide (the API server may convert any namespace's objects for its
      // caches); admission is this namespace's only.
      assertThat(webhooks.calls())
          .filteredOn(c -> !c.path().equals("/convert"))
          .noneMatch(c -> c.request().contains(other + "/"));
    } finally {
      client.namespaces().withName(other).delete();
    }
  }

  /**
   * No sleep, and no race either: the body starts only once the API server has called
   * kube-harness's probe webhook, as its own audit log records (the dry-run ConfigMap creates of
   * the probe, one of them admitted through the probe of this namespace's mutating configuration).
   * The first create of a body is thus always mutated; that alone would not show a missing wait, as
   * the API server often loads a new configuration faster than a body's first request.
   */
  @Test
  void theBodyStartsOnlyOnceTheApiServerHasCalledTheProbe(ControlPlane controlPlane) {
    Path audit = controlPlane.auditLogFile().orElseThrow();
    String probeCreates = "/namespaces/" + namespace + "/configmaps?dryRun=All";
    // The entry is written as its response completes: the harness may have read the answer first.
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(Files.readAllLines(audit))
                    .filteredOn(line -> line.contains(probeCreates))
                    .as("the probe's dry-run creates in " + namespace + ", from " + audit)
                    .anySatisfy(
                        line ->
                            assertThat(line)
                                .contains("mutation.webhook.admission.k8s.io/round_0_index_0")
                                .contains("probe.kube-harness.io")
                                .contains("gadget-mutating-webhook-configuration-" + namespace)));
  }

  @Test
  void theConfigurationsAreAppliedForThisNamespaceOnly() {
    var applied =
        client
            .admissionRegistration()
            .v1()
            .mutatingWebhookConfigurations()
            .withLabel("kube-harness.io/webhooks-for", namespace)
            .list()
            .getItems();
    assertThat(applied).hasSize(1);
    var config = applied.get(0);
    assertThat(config.getMetadata().getName())
        .isEqualTo("gadget-mutating-webhook-configuration-" + namespace);
    var webhook = config.getWebhooks().get(1);
    assertThat(webhook.getClientConfig().getUrl())
        .startsWith("https://127.0.0.1:")
        .endsWith("/mutate-test-kubeharness-io-v1-gadget");
    assertThat(webhook.getClientConfig().getService()).isNull();
    assertThat(webhook.getNamespaceSelector().getMatchExpressions())
        .anySatisfy(e -> assertThat(e.getValues()).containsExactly(namespace));
    assertThat(webhooks.url("/mutate-test-kubeharness-io-v1-gadget"))
        .isEqualTo(webhook.getClientConfig().getUrl());
  }

  private MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      gadgets(String version) {
    return client.genericKubernetesResources("test.kubeharness.io/" + version, "Gadget");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> spec(GenericKubernetesResource gadget) {
    return (Map<String, Object>) gadget.getAdditionalProperties().get("spec");
  }

  private static GenericKubernetesResource withSpec(
      GenericKubernetesResource gadget, String key, Object value) {
    spec(gadget).put(key, value);
    return gadget;
  }
}
