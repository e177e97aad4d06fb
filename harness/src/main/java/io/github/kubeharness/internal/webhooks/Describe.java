package io.github.kubeharness.internal.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/** One-line descriptions of webhook requests and answers, for {@code webhooks.txt}. */
final class Describe {

  private Describe() {}

  static String admissionRequest(AdmissionReview review) {
    AdmissionRequest r = review.getRequest();
    if (r == null) {
      return "AdmissionReview without request";
    }
    String kind = r.getKind() == null ? "?" : r.getKind().getKind();
    String where =
        (r.getNamespace() == null || r.getNamespace().isEmpty() ? "" : r.getNamespace() + "/")
            + (r.getName() == null || r.getName().isEmpty() ? "(generated name)" : r.getName());
    String user = r.getUserInfo() == null ? "?" : r.getUserInfo().getUsername();
    String version = r.getKind() == null ? "" : " " + r.getKind().getVersion();
    return r.getOperation()
        + " "
        + kind
        + version
        + " "
        + where
        + (Boolean.TRUE.equals(r.getDryRun()) ? " (dry run)" : "")
        + " by "
        + user
        + " uid="
        + r.getUid();
  }

  static String admissionOutcome(AdmissionReview review) {
    AdmissionResponse r = review.getResponse();
    if (Boolean.TRUE.equals(r.getAllowed())) {
      String outcome = "allowed";
      if (r.getPatch() != null) {
        outcome += ", patched (" + patchSummary(r.getPatch()) + ")";
      }
      if (r.getWarnings() != null && !r.getWarnings().isEmpty()) {
        outcome += ", warnings " + r.getWarnings();
      }
      return outcome;
    }
    Integer code = r.getStatus() == null ? null : r.getStatus().getCode();
    String message = r.getStatus() == null ? "" : Objects.toString(r.getStatus().getMessage(), "");
    return "denied (" + (code == null ? "no code" : code) + "): " + message;
  }

  private static String patchSummary(String base64Patch) {
    try {
      byte[] decoded = java.util.Base64.getDecoder().decode(base64Patch);
      JsonNode ops = Serialization.jsonMapper().readTree(decoded);
      if (ops.isArray()) {
        return abbreviate(
            java.util.stream.StreamSupport.stream(ops.spliterator(), false)
                .map(op -> op.path("op").asText() + " " + op.path("path").asText())
                .collect(Collectors.joining(", ")));
      }
    } catch (Exception e) {
      return "a patch that is not JSON Patch";
    }
    return "a patch that is not a JSON Patch array";
  }

  static String conversionRequest(ConversionReview review) {
    if (review.getRequest() == null) {
      return "ConversionReview without request";
    }
    List<?> objects =
        review.getRequest().getObjects() == null ? List.of() : review.getRequest().getObjects();
    String names =
        objects.stream().limit(5).map(Describe::objectName).collect(Collectors.joining(", "));
    return "convert "
        + objects.size()
        + " object(s) to "
        + review.getRequest().getDesiredAPIVersion()
        + (names.isEmpty() ? "" : ": " + names + (objects.size() > 5 ? ", ..." : ""))
        + " uid="
        + review.getRequest().getUid();
  }

  static String conversionOutcome(ConversionReview review) {
    var r = review.getResponse();
    String status = r.getResult() == null ? null : r.getResult().getStatus();
    if (status != null && !"Success".equals(status)) {
      return "failed: " + Objects.toString(r.getResult().getMessage(), status);
    }
    int count = r.getConvertedObjects() == null ? 0 : r.getConvertedObjects().size();
    return "converted " + count + " object(s)";
  }

  static String anyRequest(String body) {
    try {
      JsonNode node = Serialization.jsonMapper().readTree(body);
      String kind = node.path("kind").asText();
      if ("AdmissionReview".equals(kind)) {
        return admissionRequest(
            Serialization.jsonMapper().treeToValue(node, AdmissionReview.class));
      }
      if ("ConversionReview".equals(kind)) {
        return conversionRequest(
            Serialization.jsonMapper().treeToValue(node, ConversionReview.class));
      }
      return kind.isEmpty() ? abbreviate(body) : kind;
    } catch (Exception e) {
      return abbreviate(body);
    }
  }

  static String anyOutcome(JsonNode answer) {
    JsonNode response = answer.path("response");
    if (response.has("allowed")) {
      return response.path("allowed").asBoolean()
          ? "allowed"
          : "denied ("
              + response.path("status").path("code").asText("no code")
              + "): "
              + response.path("status").path("message").asText("");
    }
    if (response.has("convertedObjects") || response.has("result")) {
      return "conversion answer, result " + response.path("result").path("status").asText("?");
    }
    return "answered " + abbreviate(answer.toString());
  }

  private static String objectName(Object object) {
    if (object instanceof HasMetadata h) {
      return h.getKind() + " " + h.getMetadata().getNamespace() + "/" + h.getMetadata().getName();
    }
    if (object instanceof Map<?, ?> map && map.get("metadata") instanceof Map<?, ?> metadata) {
      return map.get("kind") + " " + metadata.get("namespace") + "/" + metadata.get("name");
    }
    return String.valueOf(object);
  }

  /** {@code s} on one line, at most 300 characters. */
  static String abbreviate(String s) {
    String oneLine = s.replaceAll("\\s+", " ");
    return oneLine.length() > 300 ? oneLine.substring(0, 300) + "..." : oneLine;
  }
}
