package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.BackendSensitive;
import io.github.kubeharness.junit.fixtures.ExternalWebhookServer;
import io.github.kubeharness.junit.fixtures.GadgetWebhooks;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A validating webhook served by the test's own HTTPS server, from the certificate files
 * kube-harness hands out ({@code routes.tls()}), named with {@code routes.external(path, port)}:
 * the API server trusts it through the same caBundle and calls it.
 */
@BackendSensitive
@ControllerTest(
    crds = "src/test/resources/crds-webhooks",
    webhooks = "src/test/resources/webhooks/gadgets",
    webhookHandlers = ExternalWebhookServer.class)
class ExternalWebhookServerIT {

  KubernetesClient client;

  @Test
  void theApiServerCallsTheTestsOwnServer() {
    assertThatThrownBy(
            () ->
                client
                    .genericKubernetesResources("test.kubeharness.io/v1", "Gadget")
                    .resource(GadgetWebhooks.gadget("v1", "outside", Map.of("replicas", 1)))
                    .create())
        .hasMessageContaining("vgadget.test.kubeharness.io")
        .hasMessageContaining(ExternalWebhookServer.MESSAGE);
  }
}
