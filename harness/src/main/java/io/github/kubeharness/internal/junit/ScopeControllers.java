package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Clusters;
import java.util.List;
import java.util.Optional;

/**
 * The controllers of a test on one cluster, across their restarts: what runs there ({@code
 * placement}), the running instances (none before they start or while they restart), and what the
 * JOSDK reconcilers did, counted across restarts for the race explorer.
 */
final class ScopeControllers {

  private final ClusterLayout.Placement placement;
  private final ReconcileActivity activity = new ReconcileActivity();
  private RunningControllers running;

  ScopeControllers(ClusterLayout.Placement placement) {
    this.placement = placement;
  }

  /**
   * Starts them (see {@link RunningControllers#start}) with {@code client} in {@code namespace} of
   * cluster {@code clusterName}; {@code clusters} is what a constructor taking them gets.
   */
  void start(
      ExtensionConfig config,
      KubernetesClient client,
      String namespace,
      Clusters clusters,
      String clusterName) {
    running =
        RunningControllers.start(
            config, placement, client, namespace, clusters, clusterName, activity);
  }

  /** Stops the running instances, as an operator's restart does; the counts go on. */
  void stop() {
    try {
      close();
    } finally {
      running = null;
      activity.forgetPending();
    }
  }

  ReconcileActivity activity() {
    return activity;
  }

  /** The classes that run here: the reports pick their log lines. */
  List<Class<?>> classes() {
    return placement.all();
  }

  Optional<Object> instance(Class<?> type) {
    return running == null ? Optional.empty() : running.instance(type);
  }

  Optional<Object> operator() {
    return running == null ? Optional.empty() : running.operator();
  }

  /** Fatal errors the running controllers reported: all, or those since the last call. */
  List<String> failures(boolean onlyNew) {
    if (running == null) {
      return List.of();
    }
    return onlyNew ? running.failures().takeNew() : running.failures().all();
  }

  /** Stops the running instances, if any. */
  void close() {
    if (running != null) {
      running.close();
    }
  }
}
