package io.github.kubeharness.e2e;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.github.kubeharness.ControlPlane;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The Guestbook operator deployed from its own manifests, checked end to end the way the
 * kubebuilder tutorial walks it: the operator comes up and leads, the sample is reconciled into a
 * ConfigMap, Deployment and Service it owns, scaling and deletion propagate, its webhooks (served
 * by the operator with the certificate it made and injected) annotate, refuse and convert, and it
 * shuts down cleanly. On kind (USE_EXISTING_CLUSTER=true after `make deploy`) pods really run and
 * the sample becomes Ready; against the local control plane the operator jar runs as its
 * ServiceAccount.
 *
 * <p>On a cluster the suite also checks what only a kubelet can show: the Guestbook's pods run and
 * turn Ready, {@code status.readyReplicas} follows them, the Service answers with the Guestbook's
 * message, and scaling changes the number of running pods. {@code E2E_GUESTBOOK_IMAGE} names the
 * web-server image when the default (nginx) cannot be pulled, as on the air-gapped machines.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GuestbookE2E {

  private static final ResourceDefinitionContext GUESTBOOKS =
      new ResourceDefinitionContext.Builder()
          .withGroup("webapp.example.com")
          .withVersion("v1")
          .withKind("Guestbook")
          .withPlural("guestbooks")
          .withNamespaced(true)
          .build();
  private static final Path SAMPLE =
      Path.of("../sample-operator/config/samples/webapp_v1_guestbook.yaml");
  private static final boolean ON_CLUSTER =
      "true".equalsIgnoreCase(System.getenv("USE_EXISTING_CLUSTER"));
  private static final Duration WAIT = Duration.ofSeconds(ON_CLUSTER ? 180 : 60);
  private static final String GUESTBOOK_IMAGE = System.getenv("E2E_GUESTBOOK_IMAGE");

  static ControlPlane controlPlane;
  static KubernetesClient admin;
  static OperatorDeployment deployment;
  static KubernetesClient client;
  static String namespace;

  @BeforeAll
  static void deploy() throws Exception {
    controlPlane = OperatorDeployment.controlPlane();
    controlPlane.start();
    admin = controlPlane.newClient();
    if (!ON_CLUSTER) {
      deployment = OperatorDeployment.deploy(controlPlane);
    }
    namespace = "guestbook-e2e-" + UUID.randomUUID().toString().substring(0, 6);
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    client = admin.adapt(NamespacedKubernetesClient.class).inNamespace(namespace);
  }

  @AfterAll
  static void undeploy() {
    if (admin != null) {
      admin.namespaces().withName(namespace).delete();
      admin.close();
    }
    if (deployment != null) {
      deployment.close();
    }
    controlPlane.stop();
  }

  @Test
  @Order(1)
  void operatorIsReadyAndHoldsTheLeaderLease() throws Exception {
    if (ON_CLUSTER) {
      eventually(
              admin
                  .apps()
                  .deployments()
                  .inNamespace(OperatorDeployment.NAMESPACE)
                  .withName("guestbook-controller-manager"))
          .within(WAIT)
          .satisfies(d -> assertThat(d.getStatus().getAvailableReplicas()).isEqualTo(1));
    } else {
      assertThat(deployment.probe("/healthz")).isEqualTo(200);
      assertThat(deployment.probe("/readyz")).isEqualTo(200);
    }
    eventually(
            admin
                .leases()
                .inNamespace(OperatorDeployment.NAMESPACE)
                .withName("guestbook-operator-leader"))
        .within(WAIT)
        .satisfies(lease -> assertThat(lease.getSpec().getHolderIdentity()).isNotBlank());
  }

  @Test
  @Order(2)
  void theSampleIsReconciledIntoOwnedChildren() throws Exception {
    GenericKubernetesResource sample =
        client.genericKubernetesResources(GUESTBOOKS).load(Files.newInputStream(SAMPLE)).item();
    if (GUESTBOOK_IMAGE != null && !GUESTBOOK_IMAGE.isBlank()) {
      sample.setAdditionalProperty(
          "spec", withImage(sample.getAdditionalProperties().get("spec"), GUESTBOOK_IMAGE));
    }
    client.genericKubernetesResources(GUESTBOOKS).resource(sample).create();
    GenericKubernetesResource guestbook =
        eventually(client.genericKubernetesResources(GUESTBOOKS).withName("guestbook-sample"))
            .within(WAIT)
            .hasCondition(ON_CLUSTER ? "Ready" : "Progressing", "True");
    eventually(client.configMaps().withName("guestbook-sample")).within(WAIT).isOwnedBy(guestbook);
    eventually(client.apps().deployments().withName("guestbook-sample"))
        .within(WAIT)
        .isOwnedBy(guestbook);
    eventually(client.services().withName("guestbook-sample")).within(WAIT).isOwnedBy(guestbook);
    if (ON_CLUSTER) {
      assertThat(readyReplicas(guestbook)).isEqualTo(1);
      assertThat(KindChecks.readyPods(client, "guestbook-sample")).hasSize(1);
      assertThat(KindChecks.httpThroughService(client, "guestbook-sample", 80))
          .contains("Hello from the Guestbook operator!");
    }
  }

  @Test
  @Order(3)
  void scalingTheGuestbookScalesItsDeployment() {
    client
        .genericKubernetesResources(GUESTBOOKS)
        .withName("guestbook-sample")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":3}}");
    Deployment d =
        eventually(client.apps().deployments().withName("guestbook-sample"))
            .within(WAIT)
            .satisfies(dep -> assertThat(dep.getSpec().getReplicas()).isEqualTo(3));
    assertThat(d.getMetadata().getOwnerReferences()).isNotEmpty();
    if (ON_CLUSTER) {
      // Three pods really run, and the Guestbook's status counts them only once they are Ready.
      eventually(client.genericKubernetesResources(GUESTBOOKS).withName("guestbook-sample"))
          .within(WAIT)
          .satisfies(
              gb -> {
                assertThat(readyReplicas(gb)).isEqualTo(3);
                assertThat(gb).extracting(GuestbookE2E::readyCondition).isEqualTo("True");
              });
      assertThat(KindChecks.readyPods(client, "guestbook-sample")).hasSize(3);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> withImage(Object spec, String image) {
    Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) spec);
    copy.put("image", image);
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static Object readyReplicas(GenericKubernetesResource guestbook) {
    Object status = guestbook.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> map
        ? ((Map<String, Object>) map).get("readyReplicas")
        : null;
  }

  private static String readyCondition(GenericKubernetesResource guestbook) {
    Object status = guestbook.getAdditionalProperties().get("status");
    if (status instanceof Map<?, ?> map && map.get("conditions") instanceof List<?> conditions) {
      for (Object c : conditions) {
        if (c instanceof Map<?, ?> condition && "Ready".equals(condition.get("type"))) {
          return String.valueOf(condition.get("status"));
        }
      }
    }
    return null;
  }

  @Test
  @Order(4)
  void theDeployedWebhooksAnnotateRefuseAndConvert() {
    // Mutating: the sample, created in a test above, carries the name of whoever created it.
    GenericKubernetesResource sample =
        client.genericKubernetesResources(GUESTBOOKS).withName("guestbook-sample").get();
    assertThat(sample.getMetadata().getAnnotations())
        .hasEntrySatisfying("webapp.example.com/created-by", user -> assertThat(user).isNotBlank());
    // Validating: 3 -> 1 removes more than half at once.
    assertThatThrownBy(
            () ->
                client
                    .genericKubernetesResources(GUESTBOOKS)
                    .withName("guestbook-sample")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":1}}"))
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422))
        .hasMessageContaining("vguestbook-v1.kb.io")
        .hasMessageContaining("removes more than half at once");
    // Conversion: the same object read as v1alpha1 counts size, not replicas.
    GenericKubernetesResource old =
        client
            .genericKubernetesResources("webapp.example.com/v1alpha1", "Guestbook")
            .withName("guestbook-sample")
            .get();
    assertThat(old.getAdditionalProperties().get("spec"))
        .asInstanceOf(InstanceOfAssertFactories.MAP)
        .containsEntry("size", 3)
        .doesNotContainKey("replicas");
  }

  @Test
  @Order(5)
  void deletingTheGuestbookRemovesEverythingItOwned() {
    client.genericKubernetesResources(GUESTBOOKS).withName("guestbook-sample").delete();
    eventually(client.apps().deployments().withName("guestbook-sample")).within(WAIT).isDeleted();
    eventually(client.services().withName("guestbook-sample")).within(WAIT).isDeleted();
    eventually(client.configMaps().withName("guestbook-sample")).within(WAIT).isDeleted();
  }

  @Test
  @Order(6)
  void theOperatorStopsCleanlyOnSigterm() throws Exception {
    if (ON_CLUSTER) {
      // The pod is kind's to stop (at `make undeploy`); what can be checked here is that the
      // operator ran the whole suite without its container being restarted (probes held).
      assertThat(
              admin
                  .pods()
                  .inNamespace("guestbook-system")
                  .withLabel("control-plane", "controller-manager")
                  .list()
                  .getItems())
          .isNotEmpty()
          .allSatisfy(
              pod ->
                  assertThat(pod.getStatus().getContainerStatuses())
                      .allSatisfy(
                          c -> {
                            assertThat(c.getReady()).as("operator container ready").isTrue();
                            assertThat(c.getRestartCount()).as("restarts").isZero();
                          }));
      return;
    }
    // 143 = 128 + SIGTERM: how a JVM reports a signal-initiated exit after its shutdown hooks ran.
    assertThat(deployment.terminate()).isIn(0, 143);
    assertThat(deployment.log())
        .contains("is gone", "Guestbook operator stopped")
        .doesNotContain("Lost the leader-election Lease");
  }
}
