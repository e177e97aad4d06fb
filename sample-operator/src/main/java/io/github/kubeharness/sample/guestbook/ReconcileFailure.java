package io.github.kubeharness.sample.guestbook;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.AggregatedOperatorException;
import java.util.Locale;

/**
 * Why a reconciliation failed, as a condition/Event reason (CamelCase, for machines) and a message
 * (for people). Most failures are the API server refusing a child object, and its answer already
 * names the object and the cause, so the message is mostly that answer.
 *
 * @param reason for example {@code QuotaExceeded}, {@code Forbidden}, {@code Invalid}
 * @param message what could not be done and the API server's explanation
 */
public record ReconcileFailure(String reason, String message) {

  private static final String UNEXPECTED = "ReconcileError";

  // Event messages are shown in one line by kubectl; keep them readable and within limits.
  private static final int MAX_MESSAGE = 1000;

  /** Classifies an exception thrown by a reconciliation. */
  public static ReconcileFailure of(Exception exception) {
    Throwable cause = exception;
    if (exception instanceof AggregatedOperatorException aggregated
        && !aggregated.getAggregatedExceptions().isEmpty()) {
      // The workflow reconciles children independently; the first failure is representative.
      cause = aggregated.getAggregatedExceptions().values().iterator().next();
    }
    KubernetesClientException api = apiError(cause);
    if (api == null) {
      return new ReconcileFailure(UNEXPECTED, trim(String.valueOf(cause)));
    }
    String detail =
        api.getStatus() != null && api.getStatus().getMessage() != null
            ? api.getStatus().getMessage()
            : api.getMessage();
    // The API server's message names the object and the cause, e.g. 'deployments.apps "demo" is
    // forbidden: exceeded quota: ...'.
    return new ReconcileFailure(reason(api, detail), trim(detail));
  }

  /** Whether the API server refused a request, as opposed to an error in the operator itself. */
  public boolean fromApiServer() {
    return !reason.equals(UNEXPECTED);
  }

  /** Whether {@code exception} says that the Guestbook itself no longer exists. */
  static boolean isGuestbookGone(Exception exception) {
    KubernetesClientException api = apiError(exception);
    return api != null
        && api.getCode() == 404
        && api.getStatus() != null
        && api.getStatus().getDetails() != null
        && "guestbooks".equals(api.getStatus().getDetails().getKind());
  }

  private static KubernetesClientException apiError(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof KubernetesClientException k) {
        return k;
      }
    }
    return null;
  }

  private static String reason(KubernetesClientException api, String detail) {
    return switch (api.getCode()) {
      case 403 ->
          detail.toLowerCase(Locale.ROOT).contains("exceeded quota")
              ? "QuotaExceeded"
              : "Forbidden";
      case 409 -> "Conflict";
      case 422 -> "Invalid";
      default -> api.getCode() > 0 ? "ApiError" : "ApiUnreachable";
    };
  }

  private static String trim(String message) {
    return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE) + "...";
  }
}
