package io.github.kubeharness.spring;

import java.util.Optional;
import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Gives each test method of a context with {@link KubeHarness} its own namespace, and reports it
 * when the test fails. Registered in {@code META-INF/spring.factories}; does nothing for other
 * contexts.
 */
public class KubeHarnessTestExecutionListener implements TestExecutionListener, Ordered {

  // After dependency injection (2000) and before transactional and SQL listeners.
  @Override
  public int getOrder() {
    return 2500;
  }

  @Override
  public void beforeTestMethod(TestContext testContext) {
    kubeHarness(testContext)
        .ifPresent(
            kube ->
                kube.core()
                    .beginTest(testContext.getTestClass(), testContext.getTestMethod().getName()));
  }

  @Override
  public void afterTestMethod(TestContext testContext) {
    kubeHarness(testContext).ifPresent(kube -> kube.core().endTest(testContext.getTestException()));
  }

  private static Optional<KubeHarness> kubeHarness(TestContext testContext) {
    if (!testContext.hasApplicationContext()) {
      return Optional.empty();
    }
    ApplicationContext context = testContext.getApplicationContext();
    return context.getBeanNamesForType(KubeHarness.class).length == 0
        ? Optional.empty()
        : Optional.of(context.getBean(KubeHarness.class));
  }
}
