package io.github.kubeharness.sample.guestbook.customresource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The observed state of a {@link Guestbook}, written only by the operator through the status
 * subresource. Conditions follow the Kubernetes API conventions: {@code Ready}, {@code Progressing}
 * and {@code Degraded}, each with a CamelCase reason.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GuestbookStatus {

  /** Condition type: every desired replica is ready. */
  public static final String READY = "Ready";

  /** Condition type: the Deployment is still moving towards the spec. */
  public static final String PROGRESSING = "Progressing";

  /** Condition type: the last reconciliation failed; the reason says why. */
  public static final String DEGRADED = "Degraded";

  @JsonPropertyDescription("Number of web server pods that are ready.")
  private Integer readyReplicas;

  @JsonPropertyDescription("The metadata.generation this status describes.")
  private Long observedGeneration;

  @JsonPropertyDescription("Ready, Progressing and Degraded.")
  private List<Condition> conditions = new ArrayList<>();

  public Integer getReadyReplicas() {
    return readyReplicas;
  }

  public void setReadyReplicas(Integer readyReplicas) {
    this.readyReplicas = readyReplicas;
  }

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  /** The condition of the given type, if present. */
  public Optional<Condition> condition(String type) {
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }
}
