package {{package}}.api.{{version}};

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The observed state of a {@link {{kind}}}, written by its reconciler. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class {{kind}}Status {

  @JsonPropertyDescription("The generation of the spec the operator last acted on.")
  private Long observedGeneration;

  @JsonPropertyDescription("Pods of the Deployment that are ready.")
  private Integer readyReplicas;

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public Integer getReadyReplicas() {
    return readyReplicas;
  }

  public void setReadyReplicas(Integer readyReplicas) {
    this.readyReplicas = readyReplicas;
  }
}
