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
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
public @interface RaceTest {

  /** How many runs, under seeds 1 to {@code runs}. Default 10. */
  int runs() default 10;
}
