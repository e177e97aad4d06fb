package io.github.kubeharness.sample.guestbook.customresource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The desired state of a {@link Guestbook}. Every constraint here becomes part of the CRD's schema,
 * so the API server rejects bad input before the operator ever sees it, and fills in the defaults:
 * the operator only ever sees complete specs. Unset fields stay null in Java (and are omitted when
 * sent), so the schema is the one place defaults live.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
// A cross-field rule only CEL can express; defaults are applied before it runs.
@ValidationRule(
    value = "!has(self.nodePort) || self.serviceType == 'NodePort'",
    message = "nodePort may only be set when serviceType is NodePort",
    fieldPath = ".nodePort",
    reason = "FieldValueForbidden")
public class GuestbookSpec {

  /** Image served when the spec names none. */
  public static final String DEFAULT_IMAGE = "nginx:1.27-alpine";

  /** Message shown when the spec names none. */
  public static final String DEFAULT_MESSAGE = "Hello from the Guestbook operator!";

  /** How the Guestbook's Service is exposed. */
  public enum ServiceType {
    /** Reachable inside the cluster only. */
    ClusterIP,
    /** Also reachable on a port of every node. */
    NodePort
  }

  @JsonPropertyDescription("Number of web server pods, 0 to 10.")
  @Min(0)
  @Max(10)
  @Default("1")
  private Integer replicas;

  @JsonPropertyDescription(
      "Container image of the web server. It must serve /usr/share/nginx/html on port 80, as the"
          + " nginx images do.")
  @Default(DEFAULT_IMAGE)
  @Size(min = 1, max = 512)
  @Pattern("^[^\\s]+$")
  private String image;

  @JsonPropertyDescription("Message the guestbook page shows, at most 256 characters.")
  @Default(DEFAULT_MESSAGE)
  @Size(max = 256)
  private String message;

  @JsonPropertyDescription("Type of the Service in front of the pods: ClusterIP or NodePort.")
  @Default("ClusterIP")
  private ServiceType serviceType;

  @JsonPropertyDescription(
      "Node port to use when serviceType is NodePort (30000-32767); chosen by Kubernetes if unset.")
  @Min(30000)
  @Max(32767)
  private Integer nodePort;

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

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public ServiceType getServiceType() {
    return serviceType;
  }

  public void setServiceType(ServiceType serviceType) {
    this.serviceType = serviceType;
  }

  public Integer getNodePort() {
    return nodePort;
  }

  public void setNodePort(Integer nodePort) {
    this.nodePort = nodePort;
  }
}
