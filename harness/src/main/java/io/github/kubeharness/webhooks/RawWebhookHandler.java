package io.github.kubeharness.webhooks;

/**
 * Answers a webhook request with the response body as given, unchecked: for handlers written
 * against another JSON model, or to test what the API server makes of a broken answer.
 */
@FunctionalInterface
public interface RawWebhookHandler {
  /** The JSON body to send back for the JSON body the API server sent. */
  String handle(String requestBody) throws Exception;
}
