package io.github.kubeharness.sample.guestbook.customresource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;

/**
 * {@link GuestbookSpec} as {@code v1alpha1} had it: {@code size} is {@code v1}'s {@code replicas}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GuestbookV1alpha1Spec {

  @JsonPropertyDescription("Number of web server pods, 0 to 10 (v1: replicas).")
  @Min(0)
  @Max(10)
  @Default("1")
  public Integer size;

  @JsonPropertyDescription("Container image of the web server.")
  @Default(GuestbookSpec.DEFAULT_IMAGE)
  @Size(min = 1, max = 512)
  @Pattern("^[^\\s]+$")
  public String image;

  @JsonPropertyDescription("Message the guestbook page shows, at most 256 characters.")
  @Default(GuestbookSpec.DEFAULT_MESSAGE)
  @Size(max = 256)
  public String message;

  @JsonPropertyDescription("Type of the Service in front of the pods: ClusterIP or NodePort.")
  @Default("ClusterIP")
  public GuestbookSpec.ServiceType serviceType;

  @JsonPropertyDescription("Node port to use when serviceType is NodePort (30000-32767).")
  @Min(30000)
  @Max(32767)
  public Integer nodePort;
}
