package io.github.kubeharness.quarkus;

import io.quarkus.test.junit.callback.QuarkusTestAfterEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives each test method of a test with an {@link InjectKubeHarness} field its own namespace, and
 * reports it when the test fails. Quarkus finds these callbacks through {@code META-INF/services};
 * they do nothing for other tests.
 */
public class KubeHarnessCallbacks
    implements QuarkusTestBeforeEachCallback, QuarkusTestAfterEachCallback {

  @Override
  public void beforeEach(QuarkusTestMethodContext context) {
    Object test = context.getTestInstance();
    for (KubeHarness kube : injected(test)) {
      kube.core().beginTest(test.getClass(), context.getTestMethod().getName());
    }
  }

  @Override
  public void afterEach(QuarkusTestMethodContext context) {
    Object test = context.getTestInstance();
    Throwable failure = context.getTestStatus().getTestErrorCause();
    for (KubeHarness kube : injected(test)) {
      kube.core().endTest(failure);
    }
  }

  private static List<KubeHarness> injected(Object test) {
    List<KubeHarness> found = new ArrayList<>();
    for (Class<?> type = test.getClass(); type != Object.class; type = type.getSuperclass()) {
      for (Field field : type.getDeclaredFields()) {
        if (field.isAnnotationPresent(InjectKubeHarness.class)
            && field.getType() == KubeHarness.class) {
          try {
            field.setAccessible(true);
            KubeHarness kube = (KubeHarness) field.get(test);
            if (kube != null) {
              found.add(kube);
            }
          } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot read " + field, e);
          }
        }
      }
    }
    return found;
  }
}
