package io.github.kubeharness.internal.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.manifest.ManifestFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A set's CRDs with each conversion webhook pointed at the set's handler: one job of {@link
 * WebhookSet}, apart because it reads CRD documents where the rest of the set serves and installs
 * admission configurations.
 */
final class CrdConversion {

  private final WebhookServer server;
  private final WebhookManifests manifests;
  private final CollectedRoutes routes;

  CrdConversion(WebhookServer server, WebhookManifests manifests, CollectedRoutes routes) {
    this.server = server;
    this.manifests = manifests;
    this.routes = routes;
  }

  /**
   * {@code documents} with every conversion webhook (a CRD's own, or the manifests' patch for it)
   * pointed at this set's handler; other CRDs unchanged.
   */
  List<ManifestFiles.Document> rewrite(List<ManifestFiles.Document> documents, String where) {
    List<ManifestFiles.Document> result = new ArrayList<>();
    Set<String> patched = new TreeSet<>(manifests.patchedCrds());
    for (ManifestFiles.Document document : documents) {
      String name = document.node().path("metadata").path("name").asText("");
      JsonNode conversion = manifests.conversionPatch(name);
      patched.remove(name);
      if (conversion == null) {
        JsonNode own = document.node().path("spec").path("conversion");
        conversion = "Webhook".equals(own.path("strategy").asText()) ? own : null;
      }
      if (conversion == null || !"CustomResourceDefinition".equals(document.kind())) {
        result.add(document);
        continue;
      }
      result.add(rewrite(document, name, conversion, where));
    }
    if (!patched.isEmpty()) {
      throw new KubeHarnessException(
          where
              + ": the webhook manifests patch the conversion of "
              + patched
              + ", which is not among the CRDs installed (crds, crdClasses). Install it, or"
              + " remove the patch from webhooks.");
    }
    return result;
  }

  private ManifestFiles.Document rewrite(
      ManifestFiles.Document document, String name, JsonNode conversion, String where) {
    String path =
        WebhookManifests.servicePath(conversion.path("webhook").path("clientConfig")).orElse("/");
    CollectedRoutes.Target target = routes.targets().get(path);
    if (target == null || !target.conversion()) {
      throw new KubeHarnessException(
          where
              + ": CRD "
              + name
              + " converts by webhook at "
              + path
              + ", but "
              + (target == null ? "no handler serves it" : "its handler is an admission handler")
              + ". Register it in the WebhookHandlers: routes.conversion(\""
              + path
              + "\", ...).");
    }
    // One handler per CRD for the whole JVM: conversion is cluster-wide, and objects of a
    // finished class's namespaces still need it while they are being deleted.
    String mounted = target.external() ? null : server.mountConversion(name, path, target.route());
    JsonNode rewritten =
        WebhookManifests.withConversion(
            document.node(),
            conversion,
            p -> target.external() ? target.externalUrl(p) : mounted,
            server.caBundle());
    return new ManifestFiles.Document(rewritten, document.source(), document.fromDirectory());
  }

  /**
   * Fails, naming the fix, when one of {@code documents} converts by webhook and the class serves
   * no webhooks: the API server would call a Service that is not there.
   */
  static void requireNone(List<ManifestFiles.Document> documents, String where) {
    for (ManifestFiles.Document document : documents) {
      if ("Webhook"
          .equals(document.node().path("spec").path("conversion").path("strategy").asText())) {
        throw new KubeHarnessException(
            where
                + ": CRD "
                + document.node().path("metadata").path("name").asText()
                + " from "
                + document.source()
                + " converts by webhook (spec.conversion.strategy: Webhook), but the class"
                + " serves no webhooks. Add webhookHandlers (and webhooks = the manifests), or"
                + " install the CRD without its conversion webhook.");
      }
    }
  }
}
