package io.github.kubeharness.internal.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.manifest.ManifestFiles;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A project's webhook manifests, read once per test class: its Mutating- and
 * ValidatingWebhookConfigurations, and the conversion settings of CRDs whose {@code
 * spec.conversion.strategy} is {@code Webhook} (a whole CRD, or kubebuilder's {@code
 * config/crd/patches/webhook_in_*.yaml}). Other kinds in a directory (the webhook Service, a
 * Certificate) are skipped: kube-harness serves the webhooks itself.
 */
final class WebhookManifests {

  static final String ADMISSION_GROUP = "admissionregistration.k8s.io/v1";
  private static final Set<String> CONFIGURATION_KINDS =
      Set.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration");

  private final List<ManifestFiles.Document> configurations;
  // CRD name -> its spec.conversion (strategy Webhook), from a patch in the webhook manifests
  private final Map<String, JsonNode> conversionPatches;

  private WebhookManifests(
      List<ManifestFiles.Document> configurations, Map<String, JsonNode> conversionPatches) {
    this.configurations = configurations;
    this.conversionPatches = conversionPatches;
  }

  static WebhookManifests read(List<String> entries) {
    List<ManifestFiles.Document> configurations = new ArrayList<>();
    Map<String, JsonNode> patches = new LinkedHashMap<>();
    for (ManifestFiles.Document document : ManifestFiles.read(entries, "webhooks")) {
      String kind = document.kind();
      if (CONFIGURATION_KINDS.contains(kind)) {
        if (!ADMISSION_GROUP.equals(document.node().path("apiVersion").asText())) {
          throw new KubeHarnessException(
              document.source()
                  + ": "
                  + kind
                  + " has apiVersion "
                  + document.node().path("apiVersion").asText("(none)")
                  + "; kube-harness reads "
                  + ADMISSION_GROUP
                  + ", the only version current API servers serve.");
        }
        for (JsonNode webhook : document.node().path("webhooks")) {
          path(webhook.path("clientConfig"), document, webhook.path("name").asText("?"));
        }
        configurations.add(document);
      } else if ("CustomResourceDefinition".equals(kind)) {
        JsonNode conversion = document.node().path("spec").path("conversion");
        if ("Webhook".equals(conversion.path("strategy").asText())) {
          String crd = document.node().path("metadata").path("name").asText("");
          path(conversion.path("webhook").path("clientConfig"), document, crd);
          patches.put(crd, conversion);
        }
      } else if (!document.fromDirectory()) {
        throw new KubeHarnessException(
            document.source()
                + " holds a "
                + (kind.isEmpty() ? "document without kind" : kind)
                + ", not a MutatingWebhookConfiguration, ValidatingWebhookConfiguration or a CRD"
                + " with conversion webhook. List webhook manifests in webhooks, or a directory"
                + " that holds them.");
      }
    }
    if (configurations.isEmpty() && patches.isEmpty()) {
      throw new KubeHarnessException(
          "webhooks "
              + entries
              + " hold no MutatingWebhookConfiguration, ValidatingWebhookConfiguration or CRD"
              + " with spec.conversion.strategy: Webhook. Point webhooks at the project's"
              + " webhook manifests (kubebuilder: config/webhook, config/crd/patches).");
    }
    return new WebhookManifests(configurations, patches);
  }

  /** Every path the manifests name, for admission webhooks. */
  Set<String> admissionPaths() {
    Set<String> paths = new LinkedHashSet<>();
    for (ManifestFiles.Document document : configurations) {
      for (JsonNode webhook : document.node().path("webhooks")) {
        paths.add(path(webhook.path("clientConfig"), document, webhook.path("name").asText("?")));
      }
    }
    return paths;
  }

  /** The conversion settings the manifests give {@code crd}, if any. */
  JsonNode conversionPatch(String crd) {
    return conversionPatches.get(crd);
  }

  Set<String> patchedCrds() {
    return conversionPatches.keySet();
  }

  /**
   * The configurations as applied for one namespace: renamed {@code <name>-<namespace>}, each
   * webhook's client pointed at {@code url(path)} with the CA, its namespace selector narrowed to
   * {@code namespace}, and a probe webhook first (see {@link WebhookProbe}).
   *
   * @param probeUrl the probe's URL for the configuration's index
   */
  List<Rendered> render(
      String namespace,
      Function<String, String> url,
      String caBundle,
      Function<Integer, String> probeUrl,
      Map<String, String> labels) {
    List<Rendered> rendered = new ArrayList<>();
    for (ManifestFiles.Document document : configurations) {
      ObjectNode config = document.node().deepCopy();
      ObjectNode metadata = config.with("metadata");
      String name = metadata.path("name").asText("");
      if (name.isEmpty()) {
        throw new KubeHarnessException(
            document.source() + ": a " + document.kind() + " without metadata.name.");
      }
      String applied = limit(name + "-" + namespace);
      metadata.removeAll();
      metadata.put("name", applied);
      ObjectNode metadataLabels = metadata.putObject("labels");
      labels.forEach(metadataLabels::put);
      ArrayNode webhooks = config.putArray("webhooks");
      int index = rendered.size();
      webhooks.add(WebhookProbe.webhook(namespace, probeUrl.apply(index), caBundle));
      List<Timeout> timeouts = new ArrayList<>();
      for (JsonNode original : document.node().path("webhooks")) {
        ObjectNode webhook = original.deepCopy();
        String path = path(webhook.path("clientConfig"), document, webhook.path("name").asText());
        ObjectNode client = webhook.putObject("clientConfig");
        client.put("url", url.apply(path));
        client.put("caBundle", caBundle);
        narrowToNamespace(webhook, namespace);
        webhooks.add(webhook);
        timeouts.add(new Timeout(path, webhook.path("timeoutSeconds").asInt(10)));
      }
      rendered.add(new Rendered(config, document.kind(), applied, document.source(), timeouts));
    }
    return rendered;
  }

  /**
   * {@code crd} with its conversion webhook pointed at {@code url(path)}: the conversion of the
   * manifests' patch when there is one, else its own.
   */
  static ObjectNode withConversion(
      JsonNode crd, JsonNode conversion, Function<String, String> url, String caBundle) {
    ObjectNode copy = crd.deepCopy();
    ObjectNode rewritten = conversion.deepCopy();
    ObjectNode webhook = rewritten.with("webhook");
    String path = servicePath(webhook.path("clientConfig")).orElse("/");
    ObjectNode client = webhook.putObject("clientConfig");
    client.put("url", url.apply(path));
    client.put("caBundle", caBundle);
    if (!webhook.has("conversionReviewVersions")) {
      webhook.putArray("conversionReviewVersions").add("v1");
    }
    copy.with("spec").set("conversion", rewritten);
    return copy;
  }

  /** The path of a conversion webhook's client config (its service path, or its URL's path). */
  static java.util.Optional<String> servicePath(JsonNode clientConfig) {
    if (clientConfig.has("url")) {
      String path = URI.create(clientConfig.path("url").asText()).getPath();
      return java.util.Optional.of(path == null || path.isEmpty() ? "/" : path);
    }
    String path = clientConfig.path("service").path("path").asText("");
    return path.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(path);
  }

  private static String path(JsonNode clientConfig, ManifestFiles.Document source, String name) {
    return servicePath(clientConfig)
        .orElseThrow(
            () ->
                new KubeHarnessException(
                    source.source()
                        + ": webhook "
                        + name
                        + " names no path (clientConfig.service.path or clientConfig.url); it is"
                        + " how kube-harness finds the handler. Add the path the handler serves,"
                        + " e.g. /validate-<group>-<version>-<kind>."));
  }

  // Objects in other namespaces (other test classes running at the same time) never reach this
  // test's webhooks; cluster-scoped objects still do, as namespaceSelector does not apply to them.
  private static void narrowToNamespace(ObjectNode webhook, String namespace) {
    ObjectNode selector = webhook.with("namespaceSelector");
    ArrayNode expressions = selector.withArray("matchExpressions");
    ObjectNode only = expressions.addObject();
    only.put("key", "kubernetes.io/metadata.name");
    only.put("operator", "In");
    only.putArray("values").add(namespace);
  }

  private static String limit(String name) {
    return name.length() <= 253 ? name : name.substring(0, 253).replaceAll("[-.]+$", "");
  }

  /** How long the API server waits for a path's answer. */
  record Timeout(String path, int seconds) {}

  /**
   * One configuration as applied.
   *
   * @param timeouts the configuration's webhooks' paths and timeouts
   */
  record Rendered(
      ObjectNode node, String kind, String name, String source, List<Timeout> timeouts) {}
}
