package io.github.kubeharness.internal.junit;

/** A controller (or its constructor) failed to start: shown as the test's error. */
final class ControllerStartException extends RuntimeException {
  ControllerStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
