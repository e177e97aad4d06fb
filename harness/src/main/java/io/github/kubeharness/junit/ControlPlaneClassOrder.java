package io.github.kubeharness.junit;

import io.github.kubeharness.internal.junit.SuitePlan;
import io.github.kubeharness.internal.shared.ControlPlaneKey;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * A JUnit class order that runs the test classes on one control plane one after another: the
 * classes without {@code @ControllerTest} first, then each group of {@code @ControllerTest} classes
 * that use the same control planes (backend, profile, version, matrix, ...), groups in the order
 * their first class had, classes within a group in the order JUnit gave them. Since a shared
 * control plane stops as soon as no class still to run uses it, a suite on several profiles or
 * versions then keeps one control plane running at a time instead of all of them. Opt in with
 * {@code junit.jupiter.testclass.order.default=io.github.kubeharness.junit.ControlPlaneClassOrder}
 * (in {@code src/test/resources/junit-platform.properties}).
 */
public final class ControlPlaneClassOrder implements ClassOrderer {

  /** Made by JUnit from the configuration parameter. */
  public ControlPlaneClassOrder() {}

  @Override
  public void orderClasses(ClassOrdererContext context) {
    Map<Set<ControlPlaneKey>, Integer> groups = new HashMap<>();
    groups.put(Set.of(), 0); // the classes without a control plane first: they hold none
    Map<ClassDescriptor, Integer> group = new HashMap<>();
    for (ClassDescriptor descriptor : context.getClassDescriptors()) {
      group.put(descriptor, groups.computeIfAbsent(needs(descriptor), k -> groups.size()));
    }
    // A stable sort: within a group, the order JUnit gave.
    context.getClassDescriptors().sort(Comparator.comparingInt(group::get));
  }

  /** The control planes the class may use; none for a class without {@code @ControllerTest}. */
  private static Set<ControlPlaneKey> needs(ClassDescriptor descriptor) {
    Class<?> testClass = descriptor.getTestClass();
    if (!AnnotationSupport.isAnnotated(testClass, ControllerTest.class)) {
      return Set.of();
    }
    try {
      return SuitePlan.keysOf(ControllerTestExtension.read(testClass));
    } catch (RuntimeException e) {
      return Set.of(); // it fails before it starts anything
    }
  }
}
