package io.github.kubeharness.sample.guestbook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.AggregatedOperatorException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How failures become a Degraded reason and message. */
class ReconcileFailureTest {

  @Test
  void quotaRefusalOfAChildInsideTheWorkflow() {
    var refused =
        apiError(
            403,
            "deployments.apps \"demo\" is forbidden: exceeded quota: q, requested:"
                + " count/deployments.apps=1",
            "deployments");
    var workflow =
        new AggregatedOperatorException("workflow failed", Map.of("DeploymentDependent", refused));

    ReconcileFailure failure = ReconcileFailure.of(workflow);

    assertThat(failure.reason()).isEqualTo("QuotaExceeded");
    assertThat(failure.message()).startsWith("deployments.apps \"demo\" is forbidden");
  }

  @Test
  void reasonsByStatusCode() {
    assertThat(ReconcileFailure.of(apiError(403, "forbidden", "services")).reason())
        .isEqualTo("Forbidden");
    assertThat(ReconcileFailure.of(apiError(422, "invalid", "services")).reason())
        .isEqualTo("Invalid");
    assertThat(ReconcileFailure.of(apiError(409, "conflict", "services")).reason())
        .isEqualTo("Conflict");
    assertThat(ReconcileFailure.of(new IllegalStateException("boom")))
        .isEqualTo(new ReconcileFailure("ReconcileError", "java.lang.IllegalStateException: boom"));
  }

  @Test
  void notFoundGuestbookMeansItWasDeleted() {
    assertThat(ReconcileFailure.isGuestbookGone(apiError(404, "not found", "guestbooks"))).isTrue();
    assertThat(ReconcileFailure.isGuestbookGone(apiError(404, "not found", "configmaps")))
        .isFalse();
  }

  private static KubernetesClientException apiError(int code, String message, String kind) {
    Status status =
        new StatusBuilder()
            .withCode(code)
            .withMessage(message)
            .withNewDetails()
            .withKind(kind)
            .withName("demo")
            .endDetails()
            .build();
    return new KubernetesClientException(status);
  }
}
