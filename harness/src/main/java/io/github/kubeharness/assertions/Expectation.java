package io.github.kubeharness.assertions;

import static io.github.kubeharness.assertions.ShouldExist.shouldExist;
import static io.github.kubeharness.assertions.ShouldExist.shouldNotExist;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.github.kubeharness.assertions.ObjectView.Target;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A check of one observed state of the watched object plus the words for it, shared by {@link
 * EventuallyAssert} and {@link ConsistentlyAssert}: the first waits until the check passes, the
 * second until it fails.
 *
 * @param description what is expected, completing "Expected ConfigMap demo in namespace ns-1 …",
 *     e.g. {@code to have condition Ready=True}
 * @param check throws an {@link AssertionError} saying why when the state does not satisfy the
 *     expectation; gets null for an object that does not exist
 */
record Expectation<T extends HasMetadata>(String description, Check<T> check) {

  /** The check itself; {@code current} is null when the object does not exist. */
  @FunctionalInterface
  interface Check<T> {
    void verify(Target target, T current);
  }

  /** The object exists. */
  static <T extends HasMetadata> Expectation<T> toExist() {
    return new Expectation<>("to exist", Expectation::requireExists);
  }

  /** The object does not exist; {@code description} is "to be deleted" or "not to exist". */
  static <T extends HasMetadata> Expectation<T> toBeAbsent(String description) {
    return new Expectation<>(
        description,
        (target, current) -> {
          if (current != null) {
            throw new AssertionError(shouldNotExist(target, current).create());
          }
        });
  }

  /** The object exists and {@code requirements} accepts it without an assertion error. */
  static <T extends HasMetadata> Expectation<T> toSatisfy(Consumer<? super T> requirements) {
    Objects.requireNonNull(requirements, "requirements");
    return new Expectation<>(
        "to satisfy the given requirements",
        (target, current) -> requirements.accept(requireExists(target, current)));
  }

  /** The object exists and has the condition; {@code reason} null means any reason. */
  static <T extends HasMetadata> Expectation<T> toHaveCondition(
      String type, String status, String reason) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    return new Expectation<>(
        "to have condition " + ShouldHaveCondition.expected(type, status, reason),
        (target, current) ->
            new ResourceAssert<>(requireExists(target, current))
                .hasCondition(type, status, reason));
  }

  /** The object exists and has an owner reference to {@code owner}. */
  static <T extends HasMetadata> Expectation<T> toBeOwnedBy(HasMetadata owner) {
    ResourceAssert.requireUid(owner);
    return new Expectation<>(
        "to be owned by " + ShouldBeOwnedBy.owner(owner),
        (target, current) -> new ResourceAssert<>(requireExists(target, current)).isOwnedBy(owner));
  }

  /**
   * Runs the check. An exception from user code (say a NullPointerException on a status not set
   * yet) counts as a failed check, so the wait goes on: while a controller works, half-filled
   * objects are normal.
   */
  void verify(Target target, T current) {
    try {
      check.verify(target, current);
    } catch (RuntimeException e) {
      throw new AssertionError("the check threw " + e, e);
    }
  }

  private static <T extends HasMetadata> T requireExists(Target target, T current) {
    if (current == null) {
      throw new AssertionError(shouldExist(target).create());
    }
    return current;
  }
}
