package io.github.kubeharness.internal.junit;

/**
 * The race explorer's built-in invariants, checked after each run of a race test whose body passed
 * (see {@link RaceInvariants}); the public {@code RaceTest.Invariant} names them for a test that
 * turns one off.
 */
public enum RaceInvariant {
  /** The controllers stop writing once the body is done: no object written over and over. */
  CONVERGES,
  /** Controllers restarted on the converged objects change none of them. */
  RECONCILE_AGAIN_WRITES_NOTHING,
  /** No child the controllers made names an owner that is not there. */
  NO_ORPHANS,
  /** No two children the controllers made are the same child twice. */
  NO_DUPLICATE_CHILDREN
}
