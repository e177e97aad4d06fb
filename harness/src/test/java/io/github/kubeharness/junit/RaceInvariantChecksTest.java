package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.internal.junit.RaceChecks;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The public {@link RaceTest.Invariant} is the one list of the explorer's invariants: each of its
 * constants turns off exactly one of the checks the internals run, and no two the same.
 */
class RaceInvariantChecksTest {

  private static final RaceChecks ALL = new RaceChecks(true, true, true, true);

  @Test
  void noneSkippedChecksAll() {
    assertThat(ControllerTestExtension.checks(EnumSet.noneOf(RaceTest.Invariant.class)))
        .isEqualTo(ALL);
  }

  @Test
  void eachInvariantTurnsOffACheckOfItsOwn() {
    Set<RaceChecks> seen = new HashSet<>();
    for (RaceTest.Invariant invariant : RaceTest.Invariant.values()) {
      RaceChecks checks = ControllerTestExtension.checks(EnumSet.of(invariant));
      assertThat(checks).as(invariant.name()).isNotEqualTo(ALL);
      seen.add(checks);
    }
    assertThat(seen).hasSize(RaceTest.Invariant.values().length);
    assertThat(ControllerTestExtension.checks(EnumSet.allOf(RaceTest.Invariant.class)))
        .isEqualTo(new RaceChecks(false, false, false, false));
  }
}
