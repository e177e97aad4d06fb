package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.BackendSensitive;
import io.github.kubeharness.junit.scenarios.WebhookScenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Webhooks that go wrong: each failure names the webhook and the request that hit it, the report's
 * webhooks.txt has the call with the handler's stack trace, misconfigured classes fail before they
 * start, and no configuration outlives its test.
 */
@ControllerTest
class WebhookFailuresIT {

  private static final Path REPORTS = Path.of("target/kube-harness/reports");

  @BackendSensitive
  @Test
  void brokenHandlersAreReportedWithTheRequestThatHitThem(KubernetesClient admin) throws Exception {
    List<ScenarioRunner.Outcome> outcomes =
        ScenarioRunner.run(WebhookScenarios.BrokenWebhooksScenario.class);

    assertThat(outcomes).hasSize(3).allMatch(o -> o.failure() != null);
    Path reports = REPORTS.resolve(WebhookScenarios.BrokenWebhooksScenario.class.getName());

    assertThat(failure(outcomes, "handlerThrows()"))
        .contains("throws.test.kubeharness.io")
        .contains("deliberately broken validator")
        .contains(
            "webhooks.txt: 1 webhook calls, 1 failed (first: /validate-throws on CREATE Gadget");
    assertThat(Files.readString(reports.resolve("handlerThrows/webhooks.txt")))
        .contains("/validate-throws  CREATE Gadget v1 ")
        .contains("denied (400): webhook /validate-throws failed: java.lang.IllegalStateException")
        .contains("at io.github.kubeharness.junit.scenarios.WebhookScenarios$BrokenHandlers");

    assertThat(failure(outcomes, "handlerAnswersMalformedJson()"))
        .contains("malformed.test.kubeharness.io")
        .contains("json parse error");
    assertThat(Files.readString(reports.resolve("handlerAnswersMalformedJson/webhooks.txt")))
        .contains("/validate-malformed  CREATE Gadget v1 ")
        .contains("the answer is not JSON");

    assertThat(failure(outcomes, "handlerIsSlowerThanItsTimeout()"))
        .contains("slow.test.kubeharness.io")
        .contains("context deadline exceeded");
    assertThat(Files.readString(reports.resolve("handlerIsSlowerThanItsTimeout/webhooks.txt")))
        .contains("/validate-slow  CREATE Gadget v1 ")
        .contains("still running after")
        .contains("the configuration's timeoutSeconds: 2");

    // Every test's configurations went with it.
    assertThat(
            admin
                .admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withLabel("kube-harness.io/webhooks-for")
                .list()
                .getItems())
        .noneMatch(c -> c.getMetadata().getName().startsWith("broken-gadget-webhooks-"));
  }

  @Test
  void aPathWithoutHandlerFailsTheClassNamingIt() {
    assertThat(classFailure(WebhookScenarios.MissingHandlerScenario.class))
        .contains("the webhook manifests call /mutate-test-kubeharness-io-v1-gadget")
        .contains("no handler serves it (registered: [/convert])")
        .contains("routes.admission(\"/mutate-test-kubeharness-io-v1-gadget\", ...)");
  }

  @Test
  void webhooksWithoutHandlersFailTheClassNamingTheFix() {
    assertThat(classFailure(WebhookScenarios.NoHandlersScenario.class))
        .contains("NoHandlersScenario sets webhooks but no webhookHandlers")
        .contains("add the class that registers a handler for each path of the manifests");
  }

  @Test
  void handlersWithoutWebhookManifestsFailTheClassNamingTheFix() {
    assertThat(classFailure(WebhookScenarios.HandlersWithoutManifestsScenario.class))
        .contains("HandlersWithoutManifestsScenario sets webhookHandlers but no webhooks")
        .contains("name the webhook manifests they serve (webhooks = \"config/webhook\")");
  }

  @Test
  void aConversionPatchForACrdNotInstalledFailsTheClass() {
    assertThat(classFailure(WebhookScenarios.PatchWithoutCrdScenario.class))
        .contains("patch the conversion of [gadgets.test.kubeharness.io]")
        .contains("not among the CRDs installed")
        .contains("Install it, or remove the patch from webhooks");
  }

  /**
   * A CRD converting by webhook in a class that serves none would make the API server call a
   * Service that does not exist for every read of another version: the class fails first, and the
   * CRD is never installed.
   */
  @Test
  void aCrdThatConvertsByWebhookInAClassServingNoneFailsTheClass(KubernetesClient admin) {
    assertThat(classFailure(WebhookScenarios.ConversionWithoutWebhooksScenario.class))
        .contains("CRD conversiongadgets.test.kubeharness.io from ")
        .contains("converts by webhook (spec.conversion.strategy: Webhook), but the class serves")
        .contains("Add webhookHandlers (and webhooks = the manifests), or install the CRD without");
    assertThat(
            admin
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName("conversiongadgets.test.kubeharness.io")
                .get())
        .as("the CRD is not installed")
        .isNull();
  }

  private static String failure(List<ScenarioRunner.Outcome> outcomes, String test) {
    return outcomes.stream()
        .filter(o -> o.displayName().equals(test))
        .findFirst()
        .map(o -> ScenarioRunner.fullMessage(o.failure()))
        .orElseThrow(() -> new AssertionError("no outcome for " + test + " in " + outcomes));
  }

  private static String classFailure(Class<?> scenario) {
    List<ScenarioRunner.Outcome> outcomes = ScenarioRunner.run(scenario);
    return outcomes.stream()
        .filter(o -> o.failure() != null)
        .findFirst()
        .map(o -> ScenarioRunner.fullMessage(o.failure()))
        .orElseThrow(() -> new AssertionError("the class did not fail: " + outcomes));
  }
}
