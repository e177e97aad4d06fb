package io.github.kubeharness.webhooks;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One call the API server made to a webhook under test, as the harness saw it.
 *
 * @param path the path called (the manifests' path, without kube-harness's prefix)
 * @param request what was asked: operation, kind, namespace/name and user for an admission review;
 *     the objects and the desired version for a conversion
 * @param outcome what was answered: {@code allowed}, {@code denied (403): message}, {@code
 *     patched}, {@code converted 2 objects}, {@code failed: ...}
 * @param error the handler's exception, or a problem with its answer (malformed JSON, too late)
 */
public record WebhookCall(
    Instant time,
    String path,
    String request,
    String outcome,
    Duration took,
    Optional<String> error) {

  /** One line of {@code webhooks.txt}; the error's stack trace follows it indented. */
  @Override
  public String toString() {
    String line =
        time + "  " + path + "  " + request + "  -> " + outcome + "  (" + took.toMillis() + " ms)";
    return error.map(e -> line + "\n    " + e.replace("\n", "\n    ")).orElse(line);
  }
}
