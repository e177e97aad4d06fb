package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A JOSDK {@link Operator} running given reconcilers against one namespace with the harness's
 * client. Kept apart so that JOSDK classes are loaded only by tests that run reconcilers: the
 * harness does not require JOSDK on the classpath otherwise.
 */
final class JosdkOperator implements AutoCloseable {

  private final Operator operator;

  private JosdkOperator(Operator operator) {
    this.operator = operator;
  }

  /**
   * Registers and starts the reconcilers. JOSDK's start returns once every informer has synced its
   * cache; with {@code stopOnInformerErrorDuringStartup} a forbidden list/watch fails the start
   * instead of retrying in the background.
   */
  static JosdkOperator start(
      KubernetesClient client,
      String namespace,
      List<Object> reconcilers,
      ControllerFailures failures,
      ReconcileActivity activity) {
    Operator operator =
        new Operator(
            o ->
                o.withKubernetesClient(client)
                    .withMetrics(new ActivityMetrics(activity))
                    .withCloseClientOnStop(false)
                    .withStopOnInformerErrorDuringStartup(true)
                    // JOSDK's default handler calls System.exit(1) when a synced informer fails
                    // (e.g. a forbidden watch): that would end the test JVM. Record it instead;
                    // the test fails with it.
                    .withInformerStoppedHandler(
                        (informer, error) -> {
                          if (error != null) {
                            failures.add(describe(informer, error));
                          }
                        })
                    .withCacheSyncTimeout(Duration.ofSeconds(30))
                    .withReconciliationTerminationTimeout(Duration.ofSeconds(5)));
    for (Object reconciler : reconcilers) {
      if (!(reconciler instanceof Reconciler<?> r)) {
        throw new IllegalArgumentException(
            reconciler.getClass().getName() + " is not a JOSDK Reconciler");
      }
      register(operator, r, namespace);
    }
    try {
      operator.start();
    } catch (RuntimeException e) {
      stopQuietly(operator, e);
      throw e;
    }
    if (!operator.getRuntimeInfo().allEventSourcesAreHealthy()) {
      IllegalStateException unhealthy =
          new IllegalStateException(
              "JOSDK reports unhealthy event sources after start: "
                  + operator.getRuntimeInfo().unhealthyEventSources());
      stopQuietly(operator, unhealthy);
      throw unhealthy;
    }
    return new JosdkOperator(operator);
  }

  private static String describe(SharedIndexInformer<?> informer, Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root == error ? String.valueOf(error) : error + " (cause: " + root + ")";
    return "informer " + informer + " stopped: " + message.replaceAll("\\s+", " ");
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static void register(Operator operator, Reconciler reconciler, String namespace) {
    operator.register(reconciler, o -> o.settingNamespaces(java.util.Set.of(namespace)));
  }

  private static void stopQuietly(Operator operator, RuntimeException failure) {
    try {
      operator.stop();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  Operator operator() {
    return operator;
  }

  /** Feeds JOSDK's reconcile callbacks into {@link ReconcileActivity}. */
  private record ActivityMetrics(ReconcileActivity activity) implements Metrics {

    @Override
    public void receivedEvent(Event event, Map<String, Object> meta) {
      activity.received();
    }

    @Override
    public void reconcileCustomResource(
        HasMetadata resource, RetryInfo retry, Map<String, Object> meta) {
      activity.attempt(
          ResourceID.fromResource(resource).toString(), retry != null && retry.isLastAttempt());
    }

    @Override
    public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> meta) {
      activity.started(ResourceID.fromResource(resource).toString());
    }

    @Override
    public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> meta) {
      activity.finished(ResourceID.fromResource(resource).toString());
    }

    @Override
    public void failedReconciliation(
        HasMetadata resource, Exception exception, Map<String, Object> meta) {
      activity.failed(ResourceID.fromResource(resource).toString());
    }

    @Override
    public void finishedReconciliation(HasMetadata resource, Map<String, Object> meta) {
      activity.succeeded(ResourceID.fromResource(resource).toString());
    }

    @Override
    public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> meta) {
      activity.succeeded(resourceID.toString());
    }
  }

  @Override
  public void close() {
    operator.stop();
  }
}
