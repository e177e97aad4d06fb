package io.github.kubeharness.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendSensitive;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.junit.fixtures.GadgetWebhooks;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.launch.WebhookServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhooks without JUnit's extension: {@link WebhookServers#serve} on a control plane of one's own,
 * its CRD's conversion rewritten by {@link Webhooks#installCrds}, the configurations applied for
 * one namespace and removed again on close.
 */
class PlainJavaWebhooksIT {

  @BackendSensitive
  @Test
  @SuppressWarnings("unchecked")
  void servesInstallsAndRemovesTheWebhooks() throws Exception {
    try (ControlPlane controlPlane = ControlPlanes.create(ControlPlaneOptions.defaults())) {
      controlPlane.start();
      try (KubernetesClient client = controlPlane.newClient();
          Webhooks webhooks =
              WebhookServers.serve(
                  controlPlane,
                  List.of("src/test/resources/webhooks/gadgets"),
                  new GadgetWebhooks())) {
        assertThat(webhooks.installCrds(List.of("src/test/resources/crds-webhooks"), List.of()))
            .isEqualTo(1);
        client
            .namespaces()
            .resource(
                new NamespaceBuilder().withNewMetadata().withName("plain").endMetadata().build())
            .create();
        var gadgets =
            client
                .genericKubernetesResources("test.kubeharness.io/v1", "Gadget")
                .inNamespace("plain");
        try (AutoCloseable installed = webhooks.install("plain")) {
          gadgets.resource(GadgetWebhooks.gadget("v1", "g", Map.of("replicas", 1))).create();
          GenericKubernetesResource stored = gadgets.withName("g").get();
          assertThat((Map<Object, Object>) stored.getAdditionalProperties().get("spec"))
              .containsEntry("color", "blue");
          assertThat(configurationsFor(client, "plain")).hasSize(1);
        }
        assertThat(configurationsFor(client, "plain")).isEmpty();
        // Conversion needs no namespace: the CRD itself calls the server.
        GenericKubernetesResource asAlpha =
            client
                .genericKubernetesResources("test.kubeharness.io/v1alpha1", "Gadget")
                .inNamespace("plain")
                .withName("g")
                .get();
        assertThat((Map<Object, Object>) asAlpha.getAdditionalProperties().get("spec"))
            .containsEntry("size", 1);
        assertThat(webhooks.calls()).isNotEmpty();
      }
    }
  }

  /**
   * When the API server never calls the probe (here: the namespace does not exist, so its dry-run
   * ConfigMap never reaches admission), install gives up after 30 s naming the configurations, the
   * probe's URL, the last error and the fix, and removes what it applied.
   */
  @Test
  void aProbeTheApiServerNeverCallsTimesOutAfter30SecondsNamingTheFix() throws Exception {
    try (ControlPlane controlPlane = ControlPlanes.create(ControlPlaneOptions.defaults());
        KubernetesClient client = started(controlPlane).newClient();
        Webhooks webhooks =
            WebhookServers.serve(
                controlPlane,
                List.of("src/test/resources/webhooks/gadgets"),
                new GadgetWebhooks())) {
      webhooks.installCrds(List.of("src/test/resources/crds-webhooks"), List.of());

      assertThatThrownBy(() -> webhooks.install("never-created"))
          .isInstanceOf(KubeHarnessException.class)
          .hasMessageContaining("The API server did not call the webhooks of [")
          .hasMessageContaining("within 30 s")
          .hasMessageContaining("a dry-run ConfigMap create in never-created")
          .hasMessageContaining("kube-harness's probe at https://127.0.0.1:")
          .hasMessageContaining("last error: ")
          .hasMessageContaining("\"never-created\" not found")
          .hasMessageContaining(
              "the local backend, or container with host networking"
                  + " (-Dkubeharness.network=host)");
      assertThat(configurationsFor(client, "never-created")).as("removed again").isEmpty();
    }
  }

  /**
   * extraApiServerFlags that replace kube-harness's admission configuration take away the client
   * certificate kube-apiserver presents to webhooks: serving them is refused, naming the flag.
   */
  @Test
  void anAdmissionConfigurationOfTheUsersOwnIsRefusedNamingTheFlag(@TempDir Path dir)
      throws Exception {
    Path own =
        Files.writeString(
            dir.resolve("admission.yaml"),
            "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins: []\n");
    String flag = "--admission-control-config-file=" + own;
    try (ControlPlane controlPlane =
        started(
            ControlPlanes.create(
                ControlPlaneOptions.builder()
                    .withBackend(Backend.LOCAL)
                    .withExtraApiServerFlag(flag)
                    .build()))) {
      assertThatThrownBy(
              () ->
                  WebhookServers.serve(
                      controlPlane,
                      List.of("src/test/resources/webhooks/gadgets"),
                      new GadgetWebhooks()))
          .isInstanceOf(KubeHarnessException.class)
          .hasMessage(
              "WebhookServers.serve: extraApiServerFlags sets "
                  + flag
                  + ", which replaces the admission configuration that gives kube-apiserver its"
                  + " client certificate for webhooks; the webhook server would refuse every call."
                  + " Drop the flag to serve webhooks from the test JVM.");
    }
  }

  private static ControlPlane started(ControlPlane controlPlane) {
    controlPlane.start();
    return controlPlane;
  }

  private static java.util.List<?> configurationsFor(KubernetesClient client, String namespace) {
    return client
        .admissionRegistration()
        .v1()
        .mutatingWebhookConfigurations()
        .withLabel("kube-harness.io/webhooks-for", namespace)
        .list()
        .getItems();
  }
}
