package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookV1alpha1;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookV1alpha1Spec;
import io.github.kubeharness.sample.guestbook.webhook.GuestbookAdmission;
import io.github.kubeharness.sample.guestbook.webhook.GuestbookConversion;
import io.github.kubeharness.webhooks.WebhookCall;
import io.github.kubeharness.webhooks.WebhookHandlers;
import io.github.kubeharness.webhooks.WebhookRoutes;
import io.github.kubeharness.webhooks.Webhooks;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Guestbook's admission webhooks ({@code config/webhook}) called by a real API server while the
 * operator reconciles: a new Guestbook is annotated with its creator, a scale-down of more than
 * half is refused with the webhook's message unless annotated, and {@code v1alpha1} and {@code v1}
 * convert both ways through the conversion webhook (the CRD patch in {@code config/webhook}).
 */
// snippet:webhooks (docs/webhooks.md)
@ControllerTest(
    crdClasses = Guestbook.class,
    reconcilers = GuestbookReconciler.class,
    webhooks = "config/webhook",
    webhookHandlers = GuestbookWebhooksIT.Handlers.class)
class GuestbookWebhooksIT {

  /** The operator's admission functions on the paths of its manifests. */
  public static class Handlers implements WebhookHandlers {
    @Override
    public void register(WebhookRoutes routes) {
      routes
          .admission(GuestbookAdmission.DEFAULTING_PATH, GuestbookAdmission::recordCreator)
          .admission(GuestbookAdmission.VALIDATING_PATH, GuestbookAdmission::limitScaleDown)
          .conversion(GuestbookConversion.PATH, GuestbookConversion::convert);
    }
  }

  KubernetesClient client;
  Webhooks webhooks;

  // end-snippet

  @Test
  void aNewGuestbookIsAnnotatedWithWhoCreatedIt() {
    client.resource(Guestbook.named("visitors")).create();
    Guestbook preset = Guestbook.named("preset");
    preset.getMetadata().setAnnotations(Map.of(GuestbookAdmission.CREATED_BY, "ci-bot"));
    client.resource(preset).create();

    assertThat(annotations("visitors"))
        .containsEntry(GuestbookAdmission.CREATED_BY, "kube-harness-admin");
    assertThat(annotations("preset")).containsEntry(GuestbookAdmission.CREATED_BY, "ci-bot");
    // The operator reconciles an annotated Guestbook as any other.
    eventually(client.apps().deployments().withName("visitors")).exists();
    assertThat(webhooks.calls())
        .map(WebhookCall::toString)
        .anySatisfy(
            c ->
                assertThat(c)
                    .contains("CREATE Guestbook v1 ")
                    .contains("/visitors by kube-harness-admin")
                    .contains("patched (add /metadata/annotations)"));
  }

  // snippet:scale-down (docs/webhooks.md)
  @Test
  void aScaleDownOfMoreThanHalfIsRefusedUnlessAllowed() {
    Guestbook big = Guestbook.named("big");
    big.getSpec().setReplicas(8);
    client.resource(big).create();

    assertThatThrownBy(() -> scale("big", 2))
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422))
        .hasMessageContaining("vguestbook-v1.kb.io")
        .hasMessageContaining("scaling big down from 8 to 2 replicas removes more than half")
        .hasMessageContaining(GuestbookAdmission.ALLOW_SCALE_DOWN);
    assertThat(client.resources(Guestbook.class).withName("big").get().getSpec().getReplicas())
        .isEqualTo(8);

    scale("big", 4); // half at once is allowed
    patch(
        "big",
        "{\"metadata\":{\"annotations\":{\""
            + GuestbookAdmission.ALLOW_SCALE_DOWN
            + "\":\"true\"}},\"spec\":{\"replicas\":1}}");
    assertThat(client.resources(Guestbook.class).withName("big").get().getSpec().getReplicas())
        .isEqualTo(1);
  }

  // end-snippet

  @Test
  void av1alpha1GuestbookIsServedAsv1AndBack() {
    GuestbookV1alpha1 old = new GuestbookV1alpha1();
    old.getMetadata().setName("legacy");
    old.setSpec(new GuestbookV1alpha1Spec());
    old.getSpec().size = 3;
    client.resource(old).create();

    // Stored as v1: the operator (which watches v1) reconciles it with 3 replicas.
    Guestbook asV1 = client.resources(Guestbook.class).withName("legacy").get();
    assertThat(asV1.getSpec().getReplicas()).isEqualTo(3);
    eventually(client.apps().deployments().withName("legacy"))
        .satisfies(d -> assertThat(d.getSpec().getReplicas()).isEqualTo(3));

    scale("legacy", 2);
    GuestbookV1alpha1 back = client.resources(GuestbookV1alpha1.class).withName("legacy").get();
    assertThat(back.getSpec().size).isEqualTo(2);
    assertThat(back.getSpec().message).isEqualTo(asV1.getSpec().getMessage());
    assertThat(webhooks.calls())
        .map(WebhookCall::toString)
        .anySatisfy(c -> assertThat(c).contains("/convert").contains("to webapp.example.com/v1:"))
        .anySatisfy(c -> assertThat(c).contains("to webapp.example.com/v1alpha1:"));
  }

  private void scale(String name, int replicas) {
    patch(name, "{\"spec\":{\"replicas\":" + replicas + "}}");
  }

  // A merge patch carries no resourceVersion, so the operator's status writes cannot conflict.
  private void patch(String name, String mergePatch) {
    client
        .resources(Guestbook.class)
        .withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
  }

  private Map<String, String> annotations(String name) {
    return client.resources(Guestbook.class).withName(name).get().getMetadata().getAnnotations();
  }
}
