package io.github.kubeharness.junit.scenarios;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.GadgetWebhooks;
import io.github.kubeharness.webhooks.WebhookHandlers;
import io.github.kubeharness.webhooks.WebhookRoutes;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Webhook classes that go wrong on purpose, for WebhookFailuresIT. */
public final class WebhookScenarios {

  private WebhookScenarios() {}

  /** Handlers that throw, answer malformed JSON, or answer later than their timeout. */
  public static class BrokenHandlers implements WebhookHandlers {
    @Override
    public void register(WebhookRoutes routes) {
      routes
          .admission(
              "/validate-throws",
              review -> {
                throw new IllegalStateException("deliberately broken validator");
              })
          .raw("/validate-malformed", body -> "{\"response\": {\"allowed\": tru")
          .admission(
              "/validate-slow",
              review -> {
                Thread.sleep(4_000);
                return review;
              });
    }
  }

  /** Each test creates a Gadget one broken webhook sees; each fails with the API server's error. */
  @ControllerTest(
      crds = "src/test/resources/crds-webhooks",
      webhooks = "src/test/resources/webhooks/broken",
      webhookHandlers = BrokenHandlers.class)
  public static class BrokenWebhooksScenario {

    KubernetesClient client;

    @Test
    void handlerThrows() {
      create("throws");
    }

    @Test
    void handlerAnswersMalformedJson() {
      create("malformed");
    }

    @Test
    void handlerIsSlowerThanItsTimeout() {
      create("slow");
    }

    // The API server answers a failed webhook call with 500, which fabric8 retries ten times with
    // back-off by default: one try is what these tests look at.
    private void create(String testCase) {
      try (KubernetesClient once = OneTry.client(client.getConfiguration())) {
        create(once, client.getNamespace(), testCase);
      }
    }

    private static void create(KubernetesClient client, String namespace, String testCase) {
      client
          .genericKubernetesResources("test.kubeharness.io/v1", "Gadget")
          .inNamespace(namespace)
          .resource(
              labelled(
                  GadgetWebhooks.gadget("v1", "g-" + testCase, Map.of("replicas", 1)), testCase))
          .create();
    }

    // Each broken webhook's objectSelector picks the Gadgets labelled with its case.
    private static GenericKubernetesResource labelled(
        GenericKubernetesResource gadget, String testCase) {
      gadget.getMetadata().setLabels(Map.of("case", testCase));
      return gadget;
    }
  }

  /** Registers conversion only: the manifests' admission paths have no handler. */
  public static class ConversionOnly implements WebhookHandlers {
    @Override
    public void register(WebhookRoutes routes) {
      routes.conversion("/convert", review -> review);
    }
  }

  @ControllerTest(
      crds = "src/test/resources/crds-webhooks",
      webhooks = "src/test/resources/webhooks/gadgets",
      webhookHandlers = ConversionOnly.class)
  public static class MissingHandlerScenario {
    @Test
    void neverRuns() {}
  }

  /** The conversion patch without webhookHandlers... is refused before the class starts. */
  @ControllerTest(
      crds = "src/test/resources/crds-webhooks",
      webhooks = "src/test/resources/webhooks/gadgets")
  public static class NoHandlersScenario {
    @Test
    void neverRuns() {}
  }

  /** Full handlers but on a class whose CRDs lack the one the conversion patch names. */
  @ControllerTest(
      crds = "src/test/resources/crds",
      webhooks = "src/test/resources/webhooks/gadgets",
      webhookHandlers = GadgetWebhooks.class)
  public static class PatchWithoutCrdScenario {
    @Test
    void neverRuns() {}
  }

  /** Handlers but no manifests for them: refused before the class starts. */
  @ControllerTest(crds = "src/test/resources/crds-webhooks", webhookHandlers = GadgetWebhooks.class)
  public static class HandlersWithoutManifestsScenario {
    @Test
    void neverRuns() {}
  }

  /** A CRD that converts by webhook on its own, in a class that serves no webhooks. */
  @ControllerTest(crds = "src/test/resources/crds-conversion")
  public static class ConversionWithoutWebhooksScenario {
    @Test
    void neverRuns() {}
  }
}
