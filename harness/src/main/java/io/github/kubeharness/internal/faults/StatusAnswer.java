package io.github.kubeharness.internal.faults;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.time.Duration;

/**
 * An answer the {@link FaultProxy} gives itself instead of the apiserver's: a Kubernetes {@code
 * Status} body, as clients (and their retry logic) read the apiserver's own failures.
 */
final class StatusAnswer {

  private StatusAnswer() {}

  /** Answers {@code request} with {@code status}; {@code retryAfter} adds Retry-After, or null. */
  static void send(
      HttpServerRequest request, int status, String reason, String message, Duration retryAfter) {
    JsonObject body =
        new JsonObject()
            .put("kind", "Status")
            .put("apiVersion", "v1")
            .put("metadata", new JsonObject())
            .put("status", "Failure")
            .put("message", message)
            .put("reason", reason)
            .put("code", status);
    // Any body the request has is not read; let it flow (and be dropped) so that the connection
    // can carry the next request, also when the request was held while its token was reviewed.
    request.resume();
    var response = request.response().setStatusCode(status);
    if (retryAfter != null) {
      body.put("details", new JsonObject().put("retryAfterSeconds", retryAfter.toSeconds()));
      response.putHeader("Retry-After", Long.toString(retryAfter.toSeconds()));
    }
    response.putHeader("Content-Type", "application/json").end(body.encode());
  }
}
