package io.github.kubeharness.internal.junit;

import java.util.ArrayList;
import java.util.List;

/**
 * Fatal errors of a test's running controllers, reported from their own threads. JOSDK's default
 * reaction to a failed informer is {@code System.exit(1)}, which would end the whole test JVM and
 * every class still to run in it; the harness records the error here instead, and the test that
 * owns the controllers fails with it.
 */
final class ControllerFailures {

  private final List<String> failures = new ArrayList<>();
  private int reported;

  /** Records one failure, e.g. {@code informer widgets.test.kubeharness.io/v1 ...: 403 ...}. */
  synchronized void add(String failure) {
    failures.add(failure);
  }

  /** Every failure recorded so far, oldest first. */
  synchronized List<String> all() {
    return List.copyOf(failures);
  }

  /** The failures recorded since the last call: what the current test has not been told of yet. */
  synchronized List<String> takeNew() {
    List<String> fresh = List.copyOf(failures.subList(reported, failures.size()));
    reported = failures.size();
    return fresh;
  }

  /** A short text for a failure message: one line per failure. */
  static String describe(List<String> failures) {
    StringBuilder text = new StringBuilder("The test's controllers stopped with a fatal error:");
    for (String f : failures) {
      text.append("\n  ").append(f);
    }
    return text.toString();
  }
}
