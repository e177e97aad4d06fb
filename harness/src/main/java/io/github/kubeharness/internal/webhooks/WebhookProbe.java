package io.github.kubeharness.internal.webhooks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.Waits;
import java.time.Duration;
import java.util.Set;

/**
 * Proof that the API server has loaded a namespace's webhook configurations, instead of a sleep:
 * each configuration carries, first, a webhook of kube-harness's that matches only a labelled
 * ConfigMap in that namespace. A dry-run create of such a ConfigMap is repeated until every
 * configuration's probe has been called — then the API server calls the configuration's other
 * webhooks too, since it loads a configuration whole.
 */
final class WebhookProbe {

  static final String LABEL = "kube-harness.io/webhook-probe";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private WebhookProbe() {}

  /** The probe webhook of one configuration. */
  static ObjectNode webhook(String namespace, String url, String caBundle) {
    ObjectNode webhook = JsonNodeFactory.instance.objectNode();
    webhook.put("name", "probe.kube-harness.io");
    ObjectNode client = webhook.putObject("clientConfig");
    client.put("url", url);
    client.put("caBundle", caBundle);
    ObjectNode rule = webhook.putArray("rules").addObject();
    rule.putArray("apiGroups").add("");
    rule.putArray("apiVersions").add("v1");
    rule.putArray("operations").add("CREATE");
    rule.putArray("resources").add("configmaps");
    rule.put("scope", "Namespaced");
    ObjectNode only =
        webhook.putObject("namespaceSelector").putArray("matchExpressions").addObject();
    only.put("key", "kubernetes.io/metadata.name");
    only.put("operator", "In");
    only.putArray("values").add(namespace);
    webhook.putObject("objectSelector").putObject("matchLabels").put(LABEL, namespace);
    webhook.put("sideEffects", "None");
    webhook.putArray("admissionReviewVersions").add("v1");
    webhook.put("failurePolicy", "Ignore");
    webhook.put("timeoutSeconds", 5);
    return webhook;
  }

  /**
   * Returns once every configuration in {@code expected} has had its probe called; {@code called}
   * is the set the probe routes fill.
   */
  static void await(
      KubernetesClient admin,
      String namespace,
      Set<Integer> expected,
      Set<Integer> called,
      String serverUrl,
      Set<String> configurations) {
    Waits.poll(
        () -> {
          admin
              .configMaps()
              .inNamespace(namespace)
              .resource(
                  new ConfigMapBuilder()
                      .withNewMetadata()
                      .withGenerateName("kube-harness-webhook-probe-")
                      .addToLabels(LABEL, namespace)
                      .endMetadata()
                      .build())
              .dryRun()
              .create();
          return called.containsAll(expected);
        },
        Waits.deadline(TIMEOUT),
        () -> {},
        last ->
            new KubeHarnessException(
                "The API server did not call the webhooks of "
                    + configurations
                    + " within "
                    + TIMEOUT.toSeconds()
                    + " s (a dry-run ConfigMap create in "
                    + namespace
                    + " should have reached kube-harness's probe at "
                    + serverUrl
                    + (last == null ? "" : "; last error: " + last.getMessage())
                    + "). Webhooks served by the test JVM need an API server that reaches this"
                    + " machine's 127.0.0.1: the local backend, or container with host networking"
                    + " (-Dkubeharness.network=host). It must also present the client"
                    + " certificate kube-harness gives the API servers it starts"
                    + " (--admission-control-config-file): the webhook server refuses any other"
                    + " caller at the TLS handshake.",
                last));
  }
}
