package io.github.kubeharness.sample.guestbook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookStatus;
import java.time.Instant;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** How a Guestbook's status follows from its Deployment and the last reconciliation. */
class GuestbookConditionsTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:01:00Z");

  @Test
  void noDeploymentYet() {
    GuestbookStatus status = GuestbookConditions.status(guestbook(2), null, null, T0);

    assertThat(summary(status))
        .isEqualTo(
            "Ready=False/DeploymentMissing Progressing=True/WaitingForReplicas"
                + " Degraded=False/ReconcileSucceeded");
    assertThat(status.getReadyReplicas()).isZero();
    assertThat(status.getObservedGeneration()).isEqualTo(3);
  }

  @Test
  void waitingForReplicasThenReady() {
    assertThat(summary(GuestbookConditions.status(guestbook(2), deployment(1), null, T0)))
        .startsWith("Ready=False/ReplicasNotReady Progressing=True/WaitingForReplicas");
    assertThat(summary(GuestbookConditions.status(guestbook(2), deployment(2), null, T0)))
        .startsWith("Ready=True/ReplicasReady Progressing=False/Complete");
  }

  @Test
  void replicasLostForTheSameSpecAreDegradedUntilAllAreReadyAgain() {
    Guestbook guestbook = guestbook(2);
    guestbook.setStatus(GuestbookConditions.status(guestbook, deployment(2), null, T0));

    GuestbookStatus lost = GuestbookConditions.status(guestbook, deployment(1), null, T1);
    assertThat(summary(lost))
        .isEqualTo(
            "Ready=False/ReplicasNotReady Progressing=True/WaitingForReplicas"
                + " Degraded=True/ReplicasUnavailable");

    guestbook.setStatus(lost); // still 1 of 2 on the next round: still degraded
    assertThat(summary(GuestbookConditions.status(guestbook, deployment(1), null, T1)))
        .endsWith("Degraded=True/ReplicasUnavailable");
    assertThat(summary(GuestbookConditions.status(guestbook, deployment(2), null, T1)))
        .isEqualTo(
            "Ready=True/ReplicasReady Progressing=False/Complete Degraded=False/ReconcileSucceeded");
  }

  @Test
  void aScaleUpIsProgressNotLoss() {
    Guestbook guestbook = guestbook(1);
    guestbook.setStatus(GuestbookConditions.status(guestbook, deployment(1), null, T0));
    guestbook.getSpec().setReplicas(2);
    guestbook.getMetadata().setGeneration(4L);

    assertThat(summary(GuestbookConditions.status(guestbook, deployment(1), null, T1)))
        .isEqualTo(
            "Ready=False/ReplicasNotReady Progressing=True/WaitingForReplicas"
                + " Degraded=False/ReconcileSucceeded");
  }

  @Test
  void scaledToZeroIsReady() {
    assertThat(summary(GuestbookConditions.status(guestbook(0), deployment(0), null, T0)))
        .startsWith("Ready=True/ReplicasReady");
  }

  @Test
  void aFailureIsDegradedAndBlocksProgress() {
    ReconcileFailure failure = new ReconcileFailure("Forbidden", "deployments.apps is forbidden");

    GuestbookStatus status = GuestbookConditions.status(guestbook(1), null, failure, T0);

    assertThat(summary(status))
        .isEqualTo(
            "Ready=False/DeploymentMissing Progressing=False/Blocked Degraded=True/Forbidden");
    assertThat(status.condition("Degraded").orElseThrow().getMessage())
        .isEqualTo("deployments.apps is forbidden");
  }

  @Test
  void transitionTimeChangesOnlyWithTheStatus() {
    Guestbook guestbook = guestbook(1);
    guestbook.setStatus(GuestbookConditions.status(guestbook, deployment(0), null, T0));

    GuestbookStatus later = GuestbookConditions.status(guestbook, deployment(1), null, T1);

    assertThat(later.condition("Degraded").orElseThrow().getLastTransitionTime())
        .isEqualTo(T0.toString());
    assertThat(later.condition("Ready").orElseThrow().getLastTransitionTime())
        .isEqualTo(T1.toString());
  }

  private static Guestbook guestbook(int replicas) {
    Guestbook guestbook = Guestbook.named("demo");
    guestbook.getMetadata().setNamespace("default");
    guestbook.getMetadata().setGeneration(3L);
    guestbook.getSpec().setReplicas(replicas);
    return guestbook;
  }

  private static Deployment deployment(int readyReplicas) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName("demo")
        .endMetadata()
        .withNewStatus()
        .withReadyReplicas(readyReplicas)
        .endStatus()
        .build();
  }

  private static String summary(GuestbookStatus status) {
    return status.getConditions().stream()
        .map(GuestbookConditionsTest::summary)
        .collect(Collectors.joining(" "));
  }

  private static String summary(Condition c) {
    return c.getType() + "=" + c.getStatus() + "/" + c.getReason();
  }
}
