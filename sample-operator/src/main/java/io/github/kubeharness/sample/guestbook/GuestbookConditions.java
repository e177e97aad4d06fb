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

/**
 * Derives a Guestbook's status from its Deployment and the outcome of the last reconciliation.
 *
 * <ul>
 *   <li>{@code Ready}: as many ready replicas as {@code spec.replicas}.
 *   <li>{@code Progressing}: True while replicas are still becoming ready. NB: a control plane
 *       without kubelets (envtest, kube-harness) never runs pods, so there it stays True.
 *   <li>{@code Degraded}: True when the last reconciliation failed, with the failure's reason; or
 *       ({@code ReplicasUnavailable}) when the Deployment had finished rolling out the current spec
 *       and has fewer ready replicas than asked since: pods that ran turned unready or went away.
 * </ul>
 *
 * A condition keeps its {@code lastTransitionTime} while its status does not change; that also
 * makes an unchanged status an identical apply, so writing it does not trigger another round.
 */
public final class GuestbookConditions {

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
          ready < desired && rolledOut(deployment)
              ? condition(DEGRADED, true, "ReplicasUnavailable", counts + " after the rollout")
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
   * Whether the Deployment controller finished rolling out the Deployment's current spec: its
   * {@code Progressing} condition says {@code NewReplicaSetAvailable} and it has seen this
   * generation. It keeps saying so when ready pods are lost later, and changes while it makes
   * progress (new pods created, more ready).
   */
  private static boolean rolledOut(Deployment deployment) {
    if (deployment == null || deployment.getStatus() == null) {
      return false;
    }
    Long generation = deployment.getMetadata().getGeneration();
    Long observed = deployment.getStatus().getObservedGeneration();
    boolean current = generation == null || observed != null && observed >= generation;
    return current
        && deployment.getStatus().getConditions() != null
        && deployment.getStatus().getConditions().stream()
            .anyMatch(
                c ->
                    "Progressing".equals(c.getType())
                        && "NewReplicaSetAvailable".equals(c.getReason()));
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
