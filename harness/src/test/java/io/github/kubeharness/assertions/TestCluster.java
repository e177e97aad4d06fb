package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.TestCrds;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A minimal control plane for one test class, with the Widget CRD installed: a namespaced kind with
 * free-form spec and status (status subresource) on which tests write any conditions.
 */
final class TestCluster implements AutoCloseable {

  static final ResourceDefinitionContext WIDGETS =
      new ResourceDefinitionContext.Builder()
          .withGroup("test.kubeharness.io")
          .withVersion("v1")
          .withKind("Widget")
          .withPlural("widgets")
          .withNamespaced(true)
          .build();

  private final ControlPlane controlPlane;
  private final KubernetesClient admin;

  private TestCluster(ControlPlane controlPlane) {
    this.controlPlane = controlPlane;
    this.admin = controlPlane.newClient();
  }

  /** Starts a minimal control plane and installs the Widget CRD. */
  static TestCluster start() {
    ControlPlane controlPlane =
        ControlPlane.create(ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).build());
    controlPlane.start();
    TestCluster cluster = new TestCluster(controlPlane);
    TestCrds.installWidgets(cluster.admin, "test.kubeharness.io");
    return cluster;
  }

  /** The cluster-admin client; closed with the cluster. */
  KubernetesClient admin() {
    return admin;
  }

  /** The control plane, for tests that need their own client. */
  ControlPlane controlPlane() {
    return controlPlane;
  }

  /** Creates a fresh namespace and returns an admin client bound to it (shares the connection). */
  NamespacedKubernetesClient newNamespace() {
    String name = "t-" + UUID.randomUUID().toString().substring(0, 8);
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return admin.adapt(NamespacedKubernetesClient.class).inNamespace(name);
  }

  /** Widgets in the client's namespace. */
  static MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      widgets(KubernetesClient client) {
    return client.genericKubernetesResources(WIDGETS);
  }

  /** A Widget named {@code name} with a small spec, not yet created. */
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

  @Override
  public void close() {
    try {
      admin.close();
    } finally {
      controlPlane.stop();
    }
  }
}
