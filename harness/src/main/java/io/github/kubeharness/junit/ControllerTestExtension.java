package io.github.kubeharness.junit;

import io.github.kubeharness.internal.junit.ControllerTestLifecycle;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * The JUnit Jupiter extension behind {@link ControllerTest}. It only maps JUnit's callbacks onto
 * the harness; the work is done by the control plane and its collaborators.
 */
public final class ControllerTestExtension
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver,
        TestExecutionExceptionHandler {

  private final ControllerTestLifecycle lifecycle =
      new ControllerTestLifecycle(ControllerTestSettings::read, TestNamespace.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    lifecycle.beforeAll(context);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    lifecycle.beforeEach(context);
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    throw lifecycle.reportFailure(context, failure);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    lifecycle.afterEach(context);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    lifecycle.afterAll(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return lifecycle.supportsParameter(parameter, context);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return lifecycle.resolveParameter(parameter, context);
  }
}
