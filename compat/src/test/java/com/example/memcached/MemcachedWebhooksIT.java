package com.example.memcached;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.webhooks.WebhookHandlers;
import io.github.kubeharness.webhooks.WebhookRoutes;
import io.github.kubeharness.webhooks.Webhooks;
import io.javaoperatorsdk.webhook.admission.AdmissionController;
import io.javaoperatorsdk.webhook.admission.NotAllowedException;
import io.javaoperatorsdk.webhook.admission.validation.Validator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An operator project's validating webhook, written with JOSDK's webhook framework, under test on
 * this build's JUnit, JOSDK and fabric8: the API server calls it, and its refusal reaches the test.
 */
@ControllerTest(
    crds = "classpath:crds/memcacheds.cache.example.com.yaml",
    reconcilers = MemcachedReconciler.class,
    webhooks = "target/test-classes/config/webhook",
    webhookHandlers = MemcachedWebhooksIT.Handlers.class)
class MemcachedWebhooksIT {

  /** Odd sizes only: a rule a schema could state, kept simple to show the wiring. */
  public static class Handlers implements WebhookHandlers {
    @Override
    public void register(WebhookRoutes routes) {
      Validator<GenericKubernetesResource> oddSizes =
          (memcached, old, operation) -> {
            Object size = ((Map<?, ?>) memcached.getAdditionalProperties().get("spec")).get("size");
            if (size instanceof Number n && n.intValue() % 2 == 0 && n.intValue() > 0) {
              throw new NotAllowedException("size " + n + " is even: a quorum needs an odd size");
            }
          };
      routes.admission(
          "/validate-cache-example-com-v1alpha1-memcached",
          new AdmissionController<>(oddSizes)::handle);
    }
  }

  KubernetesClient client;
  Webhooks webhooks;

  @Test
  void theValidatingWebhookRefusesAndAllows() {
    KubernetesClientException refused =
        catchThrowableOfType(
            KubernetesClientException.class,
            () -> client.resource(Memcached.of("even", 2)).create());
    assertThat(refused).isNotNull();
    assertThat(refused.getMessage()).contains("size 2 is even: a quorum needs an odd size");

    client.resource(Memcached.of("odd", 3)).create();
    eventually(client.apps().deployments().withName("odd")).exists();
    assertThat(webhooks.calls()).hasSizeGreaterThanOrEqualTo(2);
  }
}
