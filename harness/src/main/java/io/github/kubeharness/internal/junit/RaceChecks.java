package io.github.kubeharness.internal.junit;

/**
 * Which of the race explorer's invariants a race test's runs check ({@link RaceInvariants}): all
 * but those its {@code @RaceTest(skip)} turned off. The public {@code RaceTest.Invariant} names
 * them; the internals cannot (they never depend on the entry points), so the extension maps that
 * enum onto this value, one flag per constant.
 */
public record RaceChecks(
    boolean converges,
    boolean reconcileAgainWritesNothing,
    boolean noOrphans,
    boolean noDuplicateChildren) {

  /** Whether there is anything to check. */
  boolean any() {
    return converges || reconcileAgainWritesNothing || noOrphans || noDuplicateChildren;
  }
}
