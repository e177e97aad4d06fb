package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.github.kubeharness.TestCrds;
import java.util.List;
import java.util.Map;

/**
 * The Widget kind of {@code src/test/resources/crds} (which the assertion ITs install with
 * {@code @ControllerTest(crds = ...)}): namespaced, free-form spec and status (status subresource),
 * on which tests write any conditions.
 */
final class Widgets {

  static final ResourceDefinitionContext WIDGETS = TestCrds.widgetResource("test.kubeharness.io");

  private Widgets() {}

  /** Widgets in the client's namespace. */
  static MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      widgets(KubernetesClient client) {
    return client.genericKubernetesResources(WIDGETS);
  }

  /** Creates a ConfigMap in the client's namespace. */
  static void createConfigMap(KubernetesClient client, String name, Map<String, String> data) {
    client
        .configMaps()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withData(data)
                .build())
        .create();
  }

  /** A Widget named {@code name} with a small spec, not yet created. */
  static GenericKubernetesResource widget(String name) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("test.kubeharness.io/v1")
        .withKind("Widget")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("size", 3)))
        .build();
  }

  /** Replaces the widget's {@code status.conditions} through the status subresource. */
  @SafeVarargs
  static void setConditions(
      KubernetesClient client, String widget, Map<String, Object>... conditions) {
    widgets(client)
        .withName(widget)
        .editStatus(
            w -> {
              w.setAdditionalProperty("status", Map.of("conditions", List.of(conditions)));
              return w;
            });
  }

  /** One condition as the API server stores it. */
  static Map<String, Object> condition(String type, String status, String reason, String message) {
    return Map.of(
        "type",
        type,
        "status",
        status,
        "reason",
        reason,
        "message",
        message,
        "lastTransitionTime",
        "2026-01-01T00:00:00Z");
  }
}
