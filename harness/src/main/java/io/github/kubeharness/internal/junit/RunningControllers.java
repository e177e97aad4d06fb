package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Clusters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * The controllers of one test (or one class in per-class mode): JOSDK reconcilers in an Operator
 * and controllers made by the test's {@code ControllerFactory}s, all watching the test namespace.
 * Closing stops them in reverse order.
 */
final class RunningControllers implements AutoCloseable {

  private final Map<Class<?>, Object> instances = new LinkedHashMap<>();
  private final List<AutoCloseable> running = new ArrayList<>();
  private final ControllerFailures failures = new ControllerFailures();
  private final ReconcileActivity activity;
  private Object operator;

  private RunningControllers(ReconcileActivity activity) {
    this.activity = activity;
  }

  /**
   * Starts everything {@code placement} names (with {@code config}'s starter), each made with
   * {@code client} and, when its constructor takes them, the test's {@code clusters}, on cluster
   * {@code clusterName} (null: the one unnamed cluster); on failure stops what started and
   * rethrows, naming the cluster. {@code activity} counts what the JOSDK reconcilers do (kept by
   * the caller across restarts).
   */
  static RunningControllers start(
      ExtensionConfig config,
      ClusterLayout.Placement placement,
      KubernetesClient client,
      String namespace,
      Clusters clusters,
      String clusterName,
      ReconcileActivity activity) {
    RunningControllers controllers = new RunningControllers(activity);
    try {
      if (!placement.reconcilers().isEmpty()) {
        List<Object> reconcilers = new ArrayList<>();
        for (Class<?> type : placement.reconcilers()) {
          Object reconciler = ControllerClasses.instantiate(type, client, clusters, "reconcilers");
          controllers.instances.put(type, reconciler);
          reconcilers.add(reconciler);
        }
        JosdkOperator josdk =
            startJosdk(client, namespace, reconcilers, controllers.failures, controllers.activity);
        controllers.running.add(josdk);
        controllers.operator = josdk.operator();
      }
      for (Class<?> type : placement.controllers()) {
        Object factory = ControllerClasses.instantiate(type, client, clusters, "controllers");
        AutoCloseable controller = config.controllerStarter().start(factory, client, namespace);
        controllers.running.add(controller);
        controllers.instances.put(type, factory);
        controllers.instances.putIfAbsent(controller.getClass(), controller);
      }
      return controllers;
    } catch (Exception e) {
      controllers.close(e);
      throw new ControllerStartException(
          "The controllers of "
              + config.testClass().getSimpleName()
              + " failed to start in namespace "
              + namespace
              + (clusterName == null ? "" : " of cluster " + clusterName)
              + ": "
              + rootMessage(e)
              + (controllers.failures.all().isEmpty()
                  ? ""
                  : "\n" + ControllerFailures.describe(controllers.failures.all())),
          e);
    }
  }

  private static JosdkOperator startJosdk(
      KubernetesClient client,
      String namespace,
      List<Object> reconcilers,
      ControllerFailures failures,
      ReconcileActivity activity) {
    try {
      return JosdkOperator.start(client, namespace, reconcilers, failures, activity);
    } catch (NoClassDefFoundError e) {
      throw new ExtensionConfigurationException(
          "reconcilers needs the Java Operator SDK on the test classpath"
              + " (io.javaoperatorsdk:operator-framework).",
          e);
    }
  }

  /** The running reconciler or controller (or factory) of exactly this type, if any. */
  Optional<Object> instance(Class<?> type) {
    Object exact = instances.get(type);
    if (exact != null) {
      return Optional.of(exact);
    }
    return instances.values().stream().filter(type::isInstance).findFirst();
  }

  /** Fatal errors the running controllers reported from their own threads. */
  ControllerFailures failures() {
    return failures;
  }

  /** JOSDK's Operator when reconcilers run. */
  Optional<Object> operator() {
    return Optional.ofNullable(operator);
  }

  @Override
  public void close() {
    RuntimeException failure = new IllegalStateException("Stopping the test's controllers failed");
    close(failure);
    if (failure.getSuppressed().length > 0) {
      throw failure;
    }
  }

  private void close(Exception collector) {
    for (int i = running.size() - 1; i >= 0; i--) {
      try {
        running.get(i).close();
      } catch (Exception e) {
        collector.addSuppressed(e);
      }
    }
    running.clear();
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (cause: " + t + ")";
  }
}
