package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Clusters;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.assertions.KubeAssertions;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.simulation.Simulation;
import io.github.kubeharness.webhooks.Webhooks;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides what the extension injects, by type, into fields and parameters: the namespaced client,
 * {@code @TestNamespace String}, the control plane, the assertions entry point, the simulation and
 * faults helpers, JOSDK's Operator and the running reconcilers and controllers.
 */
final class Injector {

  private static final String JOSDK_OPERATOR = "io.javaoperatorsdk.operator.Operator";

  // Values this injector put into fields: those are refreshed for every test, while fields the
  // test set itself are left alone.
  private final Set<Object> injected = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Class<? extends Annotation> namespaceMarker;
  private final Function<AnnotatedElement, Optional<String>> clusterOf;

  /**
   * {@code namespaceMarker}: the annotation that asks for the namespace name in a String; {@code
   * clusterOf}: the cluster an element names ({@code @Cluster}), empty for the default one.
   */
  Injector(
      Class<? extends Annotation> namespaceMarker,
      Function<AnnotatedElement, Optional<String>> clusterOf) {
    this.namespaceMarker = namespaceMarker;
    this.clusterOf = clusterOf;
  }

  /** Whether a value of {@code type} (with the element's annotations) can be injected at all. */
  static boolean supports(
      Class<?> type, AnnotatedElement element, Class<? extends Annotation> namespaceMarker) {
    if (type == String.class) {
      return element.isAnnotationPresent(namespaceMarker);
    }
    return type == KubernetesClient.class
        || type == ControlPlane.class
        || type == KubeAssertions.class
        || type == Simulation.class
        || type == Faults.class
        || type == Webhooks.class
        || type == Clusters.class
        || type.getName().equals(JOSDK_OPERATOR);
  }

  /**
   * The value for {@code type} in {@code test} on cluster {@code on}, or empty when it has none.
   */
  static Optional<Object> resolve(
      Class<?> type,
      AnnotatedElement element,
      Class<? extends Annotation> namespaceMarker,
      TestScope test,
      ClusterScope on) {
    if (type == String.class && element.isAnnotationPresent(namespaceMarker)) {
      return Optional.of(on.namespace().name());
    }
    if (type == KubernetesClient.class) {
      return Optional.of(on.client());
    }
    if (type == ControlPlane.class) {
      return Optional.of(on.cluster().controlPlane());
    }
    if (type == KubeAssertions.class) {
      return Optional.of(new KubeAssertions(on.client(), KubeAssertions.defaultTimeout()));
    }
    if (type == Simulation.class) {
      return Optional.of(new Simulation(on.cluster().controlPlane(), on.cluster().admin()));
    }
    if (type == Faults.class) {
      return Optional.of(on.faults().open());
    }
    if (type == Webhooks.class) {
      return on.webhooks().map(Object.class::cast);
    }
    if (type == Clusters.class) {
      return Optional.of(test.clustersSeenFrom(on));
    }
    if (type.getName().equals(JOSDK_OPERATOR)) {
      return on.controllers().operator();
    }
    return on.controllers().instance(type);
  }

  /** Fills the injectable fields of {@code instance} (and its superclasses) from {@code test}. */
  void injectFields(Object instance, TestScope test) {
    for (Class<?> c = instance.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers) || field.isSynthetic()) {
          continue;
        }
        Class<?> type = field.getType();
        ClusterScope on;
        try {
          on = test.on(clusterOf.apply(field).orElse(null));
        } catch (IllegalArgumentException e) {
          throw new org.junit.jupiter.api.extension.ExtensionConfigurationException(
              "Cannot inject field "
                  + c.getSimpleName()
                  + "."
                  + field.getName()
                  + ": "
                  + e.getMessage(),
              e);
        }
        boolean candidate =
            supports(type, field, namespaceMarker)
                || on.controllers().instance(type).isPresent() && !type.isPrimitive();
        if (!candidate) {
          continue;
        }
        try {
          field.setAccessible(true);
          Object current = field.get(instance);
          if (current != null && !injected.contains(current)) {
            continue;
          }
          Optional<Object> value = resolve(type, field, namespaceMarker, test, on);
          if (value.isPresent()) {
            field.set(instance, value.get());
            injected.add(value.get());
          }
        } catch (IllegalAccessException e) {
          throw new org.junit.jupiter.api.extension.ExtensionConfigurationException(
              "Cannot inject field " + c.getSimpleName() + "." + field.getName() + ": " + e, e);
        }
      }
    }
  }
}
