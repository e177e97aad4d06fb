package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Clusters;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * The classes a {@code @ControllerTest} names to be made by the harness (reconcilers, controllers,
 * webhook handlers): whether one can be made, and making it with the richest constructor the
 * harness can fill. Apart from the running controllers, so that the class's configuration can check
 * its classes without depending on what runs them.
 */
final class ControllerClasses {

  private ControllerClasses() {}

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
}
