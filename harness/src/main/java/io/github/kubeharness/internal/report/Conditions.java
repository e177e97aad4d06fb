package io.github.kubeharness.internal.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads an object's {@code status.conditions} generically and names the ones that look unhealthy,
 * as {@code Ready=False: Degraded}.
 *
 * <p>Unhealthy means not {@code True} for ordinary conditions, but {@code True} for the few types
 * whose meaning is negative ({@code Stalled}, {@code Degraded}, ...): without that a healthy {@code
 * Degraded=False} would be reported as a problem and a real {@code Stalled=True} would be hidden.
 */
final class Conditions {

  // kstatus (Reconciling, Stalled), Deployment (ReplicaFailure), Job (Failed) and common operator
  // conventions (Degraded, Error).
  private static final Set<String> NEGATIVE_POLARITY =
      Set.of("Stalled", "Reconciling", "Degraded", "Failed", "ReplicaFailure", "Error");

  private Conditions() {}

  /** The unhealthy conditions of an object (as a JSON tree), in the order the object lists them. */
  static List<String> unhealthy(JsonNode object) {
    JsonNode conditions = object.path("status").path("conditions");
    if (!conditions.isArray()) {
      return List.of();
    }
    List<String> found = new ArrayList<>();
    for (JsonNode condition : conditions) {
      String type = condition.path("type").asText("");
      String status = condition.path("status").asText("Unknown");
      if (type.isEmpty()) {
        continue;
      }
      boolean healthy =
          NEGATIVE_POLARITY.contains(type) ? status.equals("False") : status.equals("True");
      if (!healthy) {
        String reason = condition.path("reason").asText("");
        found.add(type + "=" + status + (reason.isEmpty() ? "" : ": " + reason));
      }
    }
    return found;
  }
}
