package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.ChildJvm;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A shared control plane stops as soon as no test class still to run uses it ({@link
 * SuiteControlPlanes}, registered by the harness jar). Each check ({@link
 * SuiteControlPlanesChecks}) runs a suite of five classes on three versions in a JVM of its own,
 * whose registry of control planes holds nothing else.
 */
class SuiteControlPlanesIT {

  @Test
  void eachControlPlaneStopsAfterTheLastClassThatUsesIt() throws Exception {
    passesInAFreshJvm("eachControlPlaneStopsAfterTheLastClassThatUsesIt");
  }

  @Test
  void withoutThePlanEveryControlPlaneLivesToTheRunsEnd() throws Exception {
    passesInAFreshJvm("withoutThePlanEveryControlPlaneLivesToTheRunsEnd");
  }

  @Test
  void theControlPlaneClassOrderRunsOneControlPlaneAtATime() throws Exception {
    passesInAFreshJvm("theControlPlaneClassOrderRunsOneControlPlaneAtATime");
  }

  @Test
  void theFirstClassesControlPlaneIsAskedForBeforeTheClassBegins() throws Exception {
    passesInAFreshJvm("theFirstClassesControlPlaneIsAskedForBeforeTheClassBegins");
  }

  private static void passesInAFreshJvm(String check) throws Exception {
    try (ChildJvm child = ChildJvm.start(SuiteControlPlanesChecks.class.getName(), check)) {
      String output = child.readToEnd(Duration.ofMinutes(5));
      assertThat(child.process().waitFor(30, TimeUnit.SECONDS)).as("the child JVM ended").isTrue();
      assertThat(child.process().exitValue()).as("%s in a fresh JVM:%n%s", check, output).isZero();
      assertThat(output).as(check).contains("PASSED");
    }
  }
}
