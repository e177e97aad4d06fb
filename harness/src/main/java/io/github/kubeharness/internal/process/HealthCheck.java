package io.github.kubeharness.internal.process;

/** A real readiness signal of a started process, polled until it holds. */
@FunctionalInterface
public interface HealthCheck {

  /**
   * True when ready. Exceptions mean "not yet" (connection refused while the process boots); the
   * last one is reported if the deadline passes.
   */
  boolean isReady() throws Exception;
}
