package io.github.kubeharness.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;

/**
 * A test of a {@link ControllerTest} class that runs once per seed, seeds 1 to {@link #runs()},
 * each run in its own namespace with its own controllers and named after its seed: {@code
 * oneChildPerWidget() [seed 3]}. Every random choice of the run's {@link
 * io.github.kubeharness.faults.Faults} (the order {@code watches().releaseAll()} delivers in, rule
 * probabilities) is drawn from that seed, so a run that fails fails again with it: run with {@code
 * -Dkubeharness.seed=3} to replay only that run. Use it instead of {@code @Test}; see
 * docs/races.md.
 *
 * <p>After each run whose body passed, the explorer checks its built-in {@link Invariant}s (all but
 * those in {@link #skip()}) on what the controllers did, as the fault proxy counted it: the run
 * fails with the invariant, its counts, the seed and the report. The controllers of a class with
 * race tests always connect through the fault proxy, so it needs a backend that has it.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
public @interface RaceTest {

  /** How many runs, under seeds 1 to {@code runs}. Default 10. */
  int runs() default 10;

  /** The invariants not to check, where they do not apply to the test. Default none. */
  Invariant[] skip() default {};

  /**
   * The explorer's built-in invariants, checked once the run's body passed and its faults ended
   * (holds delivered, rules removed). Counts, never time, decide each (see docs/races.md).
   */
  enum Invariant {
    /**
     * No hot loop: the controllers settle, and meanwhile write no one object more than 10 times (a
     * write that triggers the reconcile that writes again is a loop).
     */
    CONVERGES,
    /**
     * The controllers, restarted on the converged objects (each reconciled afresh from an empty
     * cache, as after an operator's restart), change none of them: a no-op write that keeps the
     * resourceVersion does not count.
     */
    RECONCILE_AGAIN_WRITES_NOTHING,
    /** No object the controllers created names in its owner references an owner that is gone. */
    NO_ORPHANS,
    /**
     * No two objects the controllers created in one collection have the same owner, the same
     * non-empty {@code generateName} and the same labels: the same child made twice.
     */
    NO_DUPLICATE_CHILDREN
  }
}
