package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Clusters;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
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
          Object reconciler = instantiate(type, client, clusters, "reconcilers");
          controllers.instances.put(type, reconciler);
          reconcilers.add(reconciler);
        }
        JosdkOperator josdk =
            startJosdk(client, namespace, reconcilers, controllers.failures, controllers.activity);
        controllers.running.add(josdk);
        controllers.operator = josdk.operator();
      }
      for (Class<?> type : placement.controllers()) {
        Object factory = instantiate(type, client, clusters, "controllers");
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

  /**
   * Fails, naming the class and the fix, unless {@code type} has a constructor the harness can
   * call. Checked once per class before any cluster work, so a wrong class fails the class, not
   * every test.
   */
  static void checkConstructible(Class<?> type, String attribute) {
    if (constructor(type).isEmpty()
        || Modifier.isAbstract(type.getModifiers())
        || type.isInterface()) {
      throw new ExtensionConfigurationException(
          attribute
              + " entry "
              + type.getName()
              + " cannot be instantiated: it needs to be a concrete class with a no-argument"
              + " constructor or one taking a KubernetesClient, Clusters or both"
              + (type.isMemberClass() && !Modifier.isStatic(type.getModifiers())
                  ? " (it is an inner class: make it static)"
                  : "")
              + ".");
    }
  }

  // The richest constructor the harness can fill: (KubernetesClient, Clusters), (Clusters),
  // (KubernetesClient), ().
  private static Optional<Constructor<?>> constructor(Class<?> type) {
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      Class<?>[] p = c.getParameterTypes();
      if (p.length == 2
          && p[0].isAssignableFrom(KubernetesClient.class)
          && p[1] == Clusters.class) {
        return Optional.of(c);
      }
    }
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (c.getParameterCount() == 1 && c.getParameterTypes()[0] == Clusters.class) {
        return Optional.of(c);
      }
    }
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (c.getParameterCount() == 1
          && c.getParameterTypes()[0].isAssignableFrom(KubernetesClient.class)) {
        return Optional.of(c);
      }
    }
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (c.getParameterCount() == 0) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  static Object instantiate(Class<?> type, KubernetesClient client, String attribute) {
    return instantiate(type, client, null, attribute);
  }

  /** {@code clusters}: null where there are none to give (webhook handlers). */
  static Object instantiate(
      Class<?> type, KubernetesClient client, Clusters clusters, String attribute) {
    checkConstructible(type, attribute);
    Constructor<?> c = constructor(type).orElseThrow();
    Object[] arguments =
        switch (c.getParameterCount()) {
          case 2 -> new Object[] {client, clusters};
          case 1 -> new Object[] {c.getParameterTypes()[0] == Clusters.class ? clusters : client};
          default -> new Object[0];
        };
    if (clusters == null && List.of(c.getParameterTypes()).contains(Clusters.class)) {
      throw new ExtensionConfigurationException(
          attribute
              + " entry "
              + type.getName()
              + " takes Clusters, which only reconcilers and controllers of a @ControllerTest"
              + " get: give it a constructor taking a KubernetesClient or none.");
    }
    try {
      c.setAccessible(true);
      return c.newInstance(arguments);
    } catch (InvocationTargetException e) {
      throw new ControllerStartException(
          "The constructor of "
              + type.getName()
              + " threw: "
              + e.getCause()
              + ". Fix the constructor or the configuration it reads (its stack trace is the"
              + " cause).",
          e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new ExtensionConfigurationException(
          "Cannot instantiate " + type.getName() + ": " + e, e);
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

  /** A controller failed to start: shown as the test's error. */
  static final class ControllerStartException extends RuntimeException {
    ControllerStartException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
