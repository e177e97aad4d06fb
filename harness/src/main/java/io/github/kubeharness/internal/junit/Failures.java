package io.github.kubeharness.internal.junit;

/**
 * Failures met while closing several things in turn: the first is thrown at the end with the later
 * ones suppressed into it, so one part that fails to close neither hides the others' failures nor
 * leaves them open.
 */
final class Failures {

  private RuntimeException first;

  void add(RuntimeException failure) {
    if (first == null) {
      first = failure;
    } else {
      first.addSuppressed(failure);
    }
  }

  void throwIfAny() {
    if (first != null) {
      throw first;
    }
  }
}
