package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.github.kubeharness.assertions.ObjectView.Condition;
import java.util.List;
import org.assertj.core.error.BasicErrorMessageFactory;
import org.assertj.core.error.ErrorMessageFactory;

/**
 * The message of a failed condition check: the condition wanted and every condition the object has,
 * one {@code type=status (reason: message)} line each, so a wrong reason or a stale
 * observedGeneration is visible without re-running the test.
 */
final class ShouldHaveCondition extends BasicErrorMessageFactory {

  private ShouldHaveCondition(String target, String expected, String found) {
    super(
        "%nExpecting %s%nto have condition %s, but %s",
        unquotedString(target), unquotedString(expected), unquotedString(found));
  }

  /**
   * The message for {@code actual} lacking condition {@code type} with {@code status} (and {@code
   * reason}, when not null).
   */
  static ErrorMessageFactory shouldHaveCondition(
      HasMetadata actual, String type, String status, String reason) {
    return new ShouldHaveCondition(
        ObjectView.describe(actual), expected(type, status, reason), found(actual, type));
  }

  /** {@code Ready=True}, or {@code Ready=False with reason Degraded}. */
  static String expected(String type, String status, String reason) {
    return type + "=" + status + (reason == null ? "" : " with reason " + reason);
  }

  private static String found(HasMetadata actual, String type) {
    List<Condition> conditions = ObjectView.conditions(actual);
    if (conditions.isEmpty()) {
      return "it has no status.conditions";
    }
    StringBuilder found = new StringBuilder();
    if (conditions.stream().noneMatch(c -> type.equals(c.type()))) {
      found.append("it has no condition ").append(type).append("; ");
    }
    found.append("its conditions are:");
    conditions.forEach(c -> found.append("\n  ").append(c));
    Long generation = actual.getMetadata().getGeneration();
    if (generation != null && conditions.stream().anyMatch(c -> c.generation() != null)) {
      found.append("\n(metadata.generation is ").append(generation).append(')');
    }
    return found.toString();
  }
}
