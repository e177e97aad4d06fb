package io.github.kubeharness.sample.guestbook.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * The Guestbook's admission webhooks ({@code config/webhook/manifests.yaml}), as plain functions of
 * an {@link AdmissionReview}: what a schema or a CEL rule cannot do.
 *
 * <ul>
 *   <li>{@link #recordCreator}: a new Guestbook is annotated with the user who created it — only
 *       admission sees who sends a request.
 *   <li>{@link #limitScaleDown}: an update that removes more than half the replicas at once is
 *       refused unless the Guestbook carries {@value #ALLOW_SCALE_DOWN}{@code : "true"} — the rule
 *       reads an annotation, which the spec's CEL rules cannot see.
 * </ul>
 */
public final class GuestbookAdmission {

  /** Set on create: who created the Guestbook. */
  public static final String CREATED_BY = "webapp.example.com/created-by";

  /** Allows one large scale-down. */
  public static final String ALLOW_SCALE_DOWN = "webapp.example.com/allow-scale-down";

  /** The paths of {@code config/webhook/manifests.yaml}, as kubebuilder names them. */
  public static final String DEFAULTING_PATH = "/mutate-webapp-example-com-v1-guestbook";

  public static final String VALIDATING_PATH = "/validate-webapp-example-com-v1-guestbook";

  private GuestbookAdmission() {}

  /** Mutating: annotates a new Guestbook with {@value #CREATED_BY} (kept if the user set it). */
  public static AdmissionReview recordCreator(AdmissionReview review) {
    AdmissionRequest request = review.getRequest();
    // The object as sent, not as a Guestbook: fabric8's ObjectMeta turns absent annotations into
    // an empty map, and a JSON Patch must know whether the map is there.
    JsonNode annotations =
        Serialization.jsonMapper()
            .convertValue(request.getObject(), JsonNode.class)
            .path("metadata")
            .path("annotations");
    AdmissionResponse response = allowed(request);
    if ("CREATE".equals(request.getOperation())
        && !annotations.has(CREATED_BY)
        && request.getUserInfo() != null) {
      String patch =
          annotations.isMissingNode()
              ? "[{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{"
                  + quote(CREATED_BY)
                  + ":"
                  + quote(request.getUserInfo().getUsername())
                  + "}}]"
              : "[{\"op\":\"add\",\"path\":\"/metadata/annotations/"
                  + CREATED_BY.replace("~", "~0").replace("/", "~1")
                  + "\",\"value\":"
                  + quote(request.getUserInfo().getUsername())
                  + "}]";
      response.setPatchType("JSONPatch");
      response.setPatch(Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
    }
    return answer(response);
  }

  /** Validating: refuses removing more than half the replicas at once without the annotation. */
  public static AdmissionReview limitScaleDown(AdmissionReview review) {
    AdmissionRequest request = review.getRequest();
    AdmissionResponse response = allowed(request);
    if ("UPDATE".equals(request.getOperation())) {
      Guestbook now = object(request.getObject());
      Guestbook before = object(request.getOldObject());
      int from = replicas(before);
      int to = replicas(now);
      Map<String, String> annotations = now.getMetadata().getAnnotations();
      boolean allowed = annotations != null && "true".equals(annotations.get(ALLOW_SCALE_DOWN));
      if (to < from && from - to > from / 2 && !allowed) {
        response.setAllowed(false);
        response.setStatus(
            new StatusBuilder()
                .withCode(422)
                .withReason("Invalid")
                .withMessage(
                    "scaling "
                        + now.getMetadata().getName()
                        + " down from "
                        + from
                        + " to "
                        + to
                        + " replicas removes more than half at once; scale down in steps, or set"
                        + " the annotation "
                        + ALLOW_SCALE_DOWN
                        + ": \"true\" to allow it")
                .build());
      }
    }
    return answer(response);
  }

  private static int replicas(Guestbook guestbook) {
    return guestbook.getSpec() == null || guestbook.getSpec().getReplicas() == null
        ? 1
        : guestbook.getSpec().getReplicas();
  }

  private static Guestbook object(Object object) {
    return Serialization.jsonMapper().convertValue(object, Guestbook.class);
  }

  private static AdmissionResponse allowed(AdmissionRequest request) {
    AdmissionResponse response = new AdmissionResponse();
    response.setUid(request.getUid());
    response.setAllowed(true);
    return response;
  }

  private static AdmissionReview answer(AdmissionResponse response) {
    AdmissionReview review = new AdmissionReview();
    review.setApiVersion("admission.k8s.io/v1");
    review.setKind("AdmissionReview");
    review.setResponse(response);
    return review;
  }

  private static String quote(String s) {
    try {
      return Serialization.jsonMapper().writeValueAsString(s);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }
}
