package io.github.kubeharness;

/**
 * Whether a failing {@code @ControllerTest} waits, with its cluster, namespace and controllers kept
 * as they were at the failure, so that someone can look with {@code kubectl} before the teardown
 * (setting {@code kubeharness.pauseOnFailure}; see docs/failure-reports.md).
 */
public enum PauseOnFailure {
  /** Never pause (the default). */
  FALSE,
  /** Pause, except in CI (the environment variable {@code CI} set and not {@code false}). */
  TRUE,
  /** Pause in CI too. */
  ALWAYS
}
