package io.github.kubeharness.sample.guestbook;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookStatus;
import io.github.kubeharness.sample.guestbook.dependent.ConfigMapDependentResource;
import io.github.kubeharness.sample.guestbook.dependent.DeploymentDependentResource;
import io.github.kubeharness.sample.guestbook.dependent.ServiceDependentResource;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceUtils;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Workflow;
import io.javaoperatorsdk.operator.processing.dependent.workflow.WorkflowBuilder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.retry.GradualRetry;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles a {@link Guestbook} into a ConfigMap (the message), a Deployment (the web server) and
 * a Service, all owned by the Guestbook, and reports their state in its status.
 *
 * <p><b>Why dependent resources, invoked explicitly.</b> Each child is a JOSDK {@code
 * KubernetesDependentResource} that only says what it wants ({@code desired()}); JOSDK then applies
 * it with server-side apply, sets the owner reference, watches the kind (so a hand edit triggers a
 * reconciliation and is put back) and compares only the fields this operator owns. That is what
 * plain reconcile code would have to write by hand, in ~50 lines per kind. The workflow is invoked
 * from {@link #reconcile} rather than declared as a managed workflow because this reconciler sets
 * {@code triggerReconcilerOnAllEvents}: it is called on the Guestbook's deletion too, and logs it
 * as kubebuilder's tutorial does, without a finalizer (JOSDK does not allow managed workflows in
 * that mode). No finalizer is needed: owner references let the garbage collector delete the
 * children, and a finalizer would block deleting Guestbooks whenever the operator is not running.
 *
 * <p><b>Errors</b> become a {@code Degraded} condition and a Warning Event ({@link
 * #updateErrorStatus}); JOSDK then retries with exponential backoff (1 s doubling to 60 s) and
 * never gives up, as controller-runtime does. Writes carry no resourceVersion (server-side apply),
 * so concurrent edits cannot make an update fail with a conflict; any other failed write is retried
 * the same way, so no change is dropped.
 */
@ControllerConfiguration(
    name = GuestbookReconciler.NAME,
    fieldManager = GuestbookReconciler.NAME,
    triggerReconcilerOnAllEvents = true)
@GradualRetry(
    maxAttempts = -1,
    initialInterval = 1_000,
    intervalMultiplier = 2,
    maxInterval = 60_000)
public class GuestbookReconciler implements Reconciler<Guestbook> {

  /** The controller's name; also the field manager of everything it applies. */
  public static final String NAME = "guestbook-operator";

  private static final Logger LOG = LoggerFactory.getLogger(GuestbookReconciler.class);

  private final Workflow<Guestbook> workflow;

  /** A reconciler with its three dependents; the Deployment waits for the ConfigMap it mounts. */
  public GuestbookReconciler() {
    var configMap = new ConfigMapDependentResource();
    workflow =
        new WorkflowBuilder<Guestbook>()
            .addDependentResource(configMap)
            .addDependentResourceAndConfigure(new DeploymentDependentResource())
            .dependsOn(configMap)
            .addDependentResource(new ServiceDependentResource())
            .build();
  }

  @Override
  public List<EventSource<?, Guestbook>> prepareEventSources(
      EventSourceContext<Guestbook> context) {
    return EventSourceUtils.eventSourcesFromWorkflow(context, workflow);
  }

  @Override
  public UpdateControl<Guestbook> reconcile(Guestbook guestbook, Context<Guestbook> context) {
    if (context.isPrimaryResourceDeleted()) {
      LOG.info(
          "Guestbook {}/{} is gone",
          guestbook.getMetadata().getNamespace(),
          guestbook.getMetadata().getName());
      return UpdateControl.noUpdate();
    }
    workflow.reconcile(guestbook, context);
    return UpdateControl.patchStatus(withStatus(guestbook, context, null));
  }

  @Override
  public ErrorStatusUpdateControl<Guestbook> updateErrorStatus(
      Guestbook guestbook, Context<Guestbook> context, Exception e) {
    if (context.isPrimaryResourceDeleted()
        || context.getPrimaryCache().get(ResourceID.fromResource(guestbook)).isEmpty()
        || ReconcileFailure.isGuestbookGone(e)) {
      // Deleted while being reconciled: there is nothing to report on, and the delete event brings
      // a last round. NB: not retrying also avoids a JOSDK 5.2 bug that, in all-events mode, loses
      // the delete event when a failed round is retried (the "is gone" line was never logged).
      return ErrorStatusUpdateControl.<Guestbook>noStatusUpdate().withNoRetry();
    }
    ReconcileFailure failure = ReconcileFailure.of(e);
    LOG.warn(
        "Reconciling Guestbook {}/{} failed (attempt {}), will retry: {}: {}",
        guestbook.getMetadata().getNamespace(),
        guestbook.getMetadata().getName(),
        context.getRetryInfo().map(r -> r.getAttemptCount() + 1).orElse(1),
        failure.reason(),
        failure.message(),
        // the API server's answer says it all; anything else is a bug worth a stack trace
        failure.fromApiServer() ? null : e);
    FailureEvents.record(context.getClient(), guestbook, failure);
    return ErrorStatusUpdateControl.patchStatus(withStatus(guestbook, context, failure));
  }

  /**
   * A fresh object holding only identity and status: applied as is, it claims nothing but the
   * status fields, and without a resourceVersion it cannot conflict.
   */
  private static Guestbook withStatus(
      Guestbook guestbook, Context<Guestbook> context, ReconcileFailure failure) {
    Deployment deployment = context.getSecondaryResource(Deployment.class).orElse(null);
    GuestbookStatus status =
        GuestbookConditions.status(
            guestbook, deployment, failure, Instant.now().truncatedTo(ChronoUnit.SECONDS));
    Guestbook patch = new Guestbook();
    patch.getMetadata().setName(guestbook.getMetadata().getName());
    patch.getMetadata().setNamespace(guestbook.getMetadata().getNamespace());
    patch.setStatus(status);
    return patch;
  }
}
