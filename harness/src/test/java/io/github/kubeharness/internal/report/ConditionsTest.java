package io.github.kubeharness.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ConditionsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void namesConditionsThatAreNotTrueWithTheirReason() throws Exception {
    JsonNode object =
        JSON.readTree(
            """
            {"status": {"conditions": [
              {"type": "Ready", "status": "False", "reason": "Degraded"},
              {"type": "Synced", "status": "True", "reason": "Ok"},
              {"type": "Available", "status": "Unknown"}
            ]}}
            """);

    assertThat(Conditions.unhealthy(object))
        .containsExactly("Ready=False: Degraded", "Available=Unknown");
  }

  @Test
  void negativeConditionsAreUnhealthyWhenTrue() throws Exception {
    JsonNode object =
        JSON.readTree(
            """
            {"status": {"conditions": [
              {"type": "Degraded", "status": "False"},
              {"type": "Stalled", "status": "True", "reason": "ImagePullFailed"}
            ]}}
            """);

    assertThat(Conditions.unhealthy(object)).containsExactly("Stalled=True: ImagePullFailed");
  }

  @Test
  void objectsWithoutConditionsHaveNone() throws Exception {
    assertThat(Conditions.unhealthy(JSON.readTree("{\"data\": {\"a\": \"b\"}}"))).isEmpty();
    assertThat(Conditions.unhealthy(JSON.readTree("{\"status\": {\"conditions\": \"odd\"}}")))
        .isEmpty();
    assertThat(Conditions.unhealthy(JSON.readTree("{\"status\": {\"conditions\": [{}]}}")))
        .isEmpty();
  }
}
