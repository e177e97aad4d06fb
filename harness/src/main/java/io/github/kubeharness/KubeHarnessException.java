package io.github.kubeharness;

/**
 * A failure the user can act on: what went wrong, which binary, file or resource it concerns, and
 * the fix (a setting, a file or a command). Lower-level causes are attached, never swallowed.
 */
public class KubeHarnessException extends RuntimeException {

  public KubeHarnessException(String message) {
    super(message);
  }

  public KubeHarnessException(String message, Throwable cause) {
    super(message, cause);
  }
}
