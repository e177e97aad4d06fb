package {{package}}.api.{{version}};

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The desired state of a {@link {{kind}}}. Each constraint becomes part of the CRD's schema, so
 * the API server rejects bad input before the operator sees it, and fills in the defaults.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
// A rule only CEL can express: the API server evaluates it on every write.
@ValidationRule(
    value = "!has(self.image) || !self.image.endsWith(':latest')",
    message = "image must name a fixed tag, not :latest",
    fieldPath = ".image",
    reason = "FieldValueInvalid")
public class {{kind}}Spec {

  /** The image run when the spec names none. */
  public static final String DEFAULT_IMAGE = "nginx:1.27-alpine";

  @JsonPropertyDescription("Number of pods, 0 to 10.")
  @Min(0)
  @Max(10)
  @Default("1")
  private Integer replicas;

  @JsonPropertyDescription("Container image of the pods; a fixed tag, not :latest.")
  @Default(DEFAULT_IMAGE)
  private String image;

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }
}
