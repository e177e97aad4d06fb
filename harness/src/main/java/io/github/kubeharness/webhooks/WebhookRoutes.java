package io.github.kubeharness.webhooks;

/**
 * Where {@link WebhookHandlers} put their handlers: each path of the webhook manifests gets one. A
 * path the manifests name but no handler serves fails the test class before it runs, naming both.
 */
public interface WebhookRoutes {

  /** Serves a mutating or validating webhook at {@code path}. */
  WebhookRoutes admission(String path, AdmissionHandler handler);

  /** Serves CRD conversion at {@code path}. */
  WebhookRoutes conversion(String path, ConversionHandler handler);

  /** Serves {@code path} with a handler that writes the response body itself. */
  WebhookRoutes raw(String path, RawWebhookHandler handler);

  /**
   * Sends the API server's calls for {@code path} to a webhook server the test runs itself, on
   * {@code https://127.0.0.1:<port><path>}, serving {@link #tls()}'s certificate.
   */
  WebhookRoutes external(String path, int port);

  /** The certificate and key files for a webhook server the test runs itself. */
  WebhookTls tls();
}
