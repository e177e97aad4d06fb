package io.github.kubeharness.sample.guestbook.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionResponse;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookV1alpha1;
import java.util.ArrayList;
import java.util.List;

/**
 * The Guestbook's conversion webhook ({@code config/crd/patches/webhook_in_guestbooks.yaml}):
 * {@code v1alpha1}'s {@code spec.size} is {@code v1}'s {@code spec.replicas}; every other field is
 * the same in both. Works on the JSON tree, so fields a version does not know pass through.
 */
public final class GuestbookConversion {

  /** The path of the CRD patch's clientConfig, as kubebuilder names it. */
  public static final String PATH = "/convert";

  private static final String V1 = Guestbook.GROUP + "/" + Guestbook.VERSION;
  private static final String V1ALPHA1 = Guestbook.GROUP + "/" + GuestbookV1alpha1.VERSION;

  private GuestbookConversion() {}

  public static ConversionReview convert(ConversionReview review) {
    String desired = review.getRequest().getDesiredAPIVersion();
    ConversionResponse response = new ConversionResponse();
    response.setUid(review.getRequest().getUid());
    List<Object> converted = new ArrayList<>();
    for (Object object : review.getRequest().getObjects()) {
      ObjectNode tree = Serialization.jsonMapper().convertValue(object, ObjectNode.class);
      String from = tree.path("apiVersion").asText();
      if (!isKnown(from) || !isKnown(desired)) {
        response.setResult(
            new StatusBuilder()
                .withStatus("Failure")
                .withMessage(
                    "cannot convert a Guestbook from "
                        + from
                        + " to "
                        + desired
                        + ": known versions are "
                        + V1
                        + " and "
                        + V1ALPHA1)
                .build());
        response.setConvertedObjects(List.of());
        return answer(response);
      }
      if (!from.equals(desired) && tree.path("spec") instanceof ObjectNode spec) {
        rename(
            spec,
            desired.equals(V1) ? "size" : "replicas",
            desired.equals(V1) ? "replicas" : "size");
      }
      tree.put("apiVersion", desired);
      converted.add(tree);
    }
    response.setConvertedObjects(converted);
    response.setResult(new StatusBuilder().withStatus("Success").build());
    return answer(response);
  }

  private static boolean isKnown(String apiVersion) {
    return V1.equals(apiVersion) || V1ALPHA1.equals(apiVersion);
  }

  private static void rename(ObjectNode spec, String from, String to) {
    JsonNode value = spec.remove(from);
    if (value != null) {
      spec.set(to, value);
    }
  }

  private static ConversionReview answer(ConversionResponse response) {
    ConversionReview review = new ConversionReview();
    review.setApiVersion("apiextensions.k8s.io/v1");
    review.setKind("ConversionReview");
    review.setResponse(response);
    return review;
  }
}
