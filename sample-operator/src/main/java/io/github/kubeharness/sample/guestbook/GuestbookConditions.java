package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.sample.guestbook.customresource.GuestbookStatus.DEGRADED;
import static io.github.kubeharness.sample.guestbook.customresource.GuestbookStatus.PROGRESSING;
import static io.github.kubeharness.sample.guestbook.customresource.GuestbookStatus.READY;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Derives a Guestbook's status from its Deployment and the outcome of the last reconciliation.
 *
 * <ul>
 *   <li>{@code Ready}: as many ready replicas as {@code spec.replicas}.
 *   <li>{@code Progressing}: True while replicas are still becoming ready. NB: a control plane
 *       without kubelets (envtest, kube-harness) never runs pods, so there it stays True.
 *   <li>{@code Degraded}: True when the last reconciliation failed, with the failure's reason; or
 *       ({@code ReplicasUnavailable}) when, for an unchanged spec, ready replicas were lost — pods
 *       that were ready turned unready or went away — until as many are ready as asked.
 * </ul>
 *
 * A condition keeps its {@code lastTransitionTime} while its status does not change; that also
 * makes an unchanged status an identical apply, so writing it does not trigger another round.
 */
public final class GuestbookConditions {

  static final String REPLICAS_UNAVAILABLE = "ReplicasUnavailable";

  private GuestbookConditions() {}

  /**
   * The status to write.
   *
   * @param deployment the Deployment as last observed, or null when it does not exist (yet)
   * @param failure why the reconciliation failed, or null when it succeeded
   */
  public static GuestbookStatus status(
      Guestbook guestbook, Deployment deployment, ReconcileFailure failure, Instant now) {
    int desired = guestbook.getSpec().getReplicas();
    int ready = readyReplicas(deployment);
    String counts = ready + " of " + desired + " replicas ready";
    List<Condition> conditions = new ArrayList<>();
    if (deployment == null) {
      conditions.add(condition(READY, false, "DeploymentMissing", "No Deployment yet"));
    } else if (ready >= desired) {
      conditions.add(condition(READY, true, "ReplicasReady", counts));
    } else {
      conditions.add(condition(READY, false, "ReplicasNotReady", counts));
    }
    if (failure != null) {
      conditions.add(
          condition(PROGRESSING, false, "Blocked", "Reconciliation failed, see Degraded"));
      conditions.add(condition(DEGRADED, true, failure.reason(), failure.message()));
    } else {
      conditions.add(
          ready < desired
              ? condition(PROGRESSING, true, "WaitingForReplicas", counts)
              : condition(PROGRESSING, false, "Complete", "The Deployment matches the spec"));
      conditions.add(
          ready < desired && replicasLost(guestbook, ready)
              ? condition(
                  DEGRADED, true, REPLICAS_UNAVAILABLE, counts + ": ready replicas were lost")
              : condition(
                  DEGRADED,
                  false,
                  "ReconcileSucceeded",
                  "ConfigMap, Deployment and Service applied"));
    }

    GuestbookStatus status = new GuestbookStatus();
    long generation = guestbook.getMetadata().getGeneration();
    status.setObservedGeneration(generation);
    status.setReadyReplicas(ready);
    GuestbookStatus previous = guestbook.getStatus();
    for (Condition condition : conditions) {
      condition.setObservedGeneration(generation);
      condition.setLastTransitionTime(
          previous == null
              ? now.toString()
              : previous
                  .condition(condition.getType())
                  .filter(p -> condition.getStatus().equals(p.getStatus()))
                  .map(Condition::getLastTransitionTime)
                  .orElse(now.toString()));
    }
    status.setConditions(conditions);
    return status;
  }

  /**
   * Whether replicas were lost rather than not yet started: for the same generation of the
   * Guestbook, fewer are ready than the last status said, or the last status already said so. A
   * scale-up or a new spec is progress, not loss, until it is observed.
   */
  private static boolean replicasLost(Guestbook guestbook, int ready) {
    GuestbookStatus previous = guestbook.getStatus();
    if (previous == null
        || !Objects.equals(
            previous.getObservedGeneration(), guestbook.getMetadata().getGeneration())) {
      return false;
    }
    boolean fewerThanBefore =
        previous.getReadyReplicas() != null && ready < previous.getReadyReplicas();
    boolean lostBefore =
        previous
            .condition(DEGRADED)
            .filter(c -> "True".equals(c.getStatus()))
            .filter(c -> REPLICAS_UNAVAILABLE.equals(c.getReason()))
            .isPresent();
    return fewerThanBefore || lostBefore;
  }

  private static int readyReplicas(Deployment deployment) {
    if (deployment == null
        || deployment.getStatus() == null
        || deployment.getStatus().getReadyReplicas() == null) {
      return 0;
    }
    return deployment.getStatus().getReadyReplicas();
  }

  private static Condition condition(String type, boolean status, String reason, String message) {
    return new ConditionBuilder()
        .withType(type)
        .withStatus(status ? "True" : "False")
        .withReason(reason)
        .withMessage(message)
        .build();
  }
}
