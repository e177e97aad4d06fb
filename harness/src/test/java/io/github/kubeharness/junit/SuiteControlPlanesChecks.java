package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.INTEGER;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.shared.RunningControlPlanes;
import io.github.kubeharness.junit.SuitePlanScenarios.Seen;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The checks of {@link SuiteControlPlanesIT}, each run in a JVM of its own ({@link #main}): a suite
 * of five classes on three versions ({@link SuitePlanScenarios}) runs in a launcher of its own, as
 * a build runs a suite, and the kube-apiserver processes themselves say what was alive when each
 * class ran. A fresh JVM because the registry of control planes is JVM-wide: inside a failsafe JVM,
 * the outer suite's own plan holds the control planes its later classes use, the same ones as here.
 */
final class SuiteControlPlanesChecks {

  /** Runs the check {@code args[0]}; prints {@code PASSED}, or the failure and exits 1. */
  public static void main(String[] args) {
    SuiteControlPlanesChecks checks = new SuiteControlPlanesChecks();
    try {
      switch (args[0]) {
        case "eachControlPlaneStopsAfterTheLastClassThatUsesIt" ->
            checks.eachControlPlaneStopsAfterTheLastClassThatUsesIt();
        case "withoutThePlanEveryControlPlaneLivesToTheRunsEnd" ->
            checks.withoutThePlanEveryControlPlaneLivesToTheRunsEnd();
        case "theControlPlaneClassOrderRunsOneControlPlaneAtATime" ->
            checks.theControlPlaneClassOrderRunsOneControlPlaneAtATime();
        case "theFirstClassesControlPlaneIsAskedForBeforeTheClassBegins" ->
            checks.theFirstClassesControlPlaneIsAskedForBeforeTheClassBegins();
        default -> throw new IllegalArgumentException("no check named " + args[0]);
      }
      System.out.println("PASSED");
      System.exit(0);
    } catch (Throwable failure) {
      failure.printStackTrace(System.out);
      System.exit(1);
    }
  }

  void eachControlPlaneStopsAfterTheLastClassThatUsesIt() {
    Map<String, Seen> seen = runSuite(LauncherConfig.DEFAULT, ClassOrderer.OrderAnnotation.class);
    assertThat(seen.keySet())
        .containsExactly("newest-1", "middle-2", "newest-3", "oldest-4", "none-5");

    // The third class has the first one's key: it got the same apiserver, kept for it meanwhile.
    assertThat(seen.get("newest-3").pid()).isEqualTo(seen.get("newest-1").pid());
    assertThat(seen.get("middle-2").alive()).containsEntry("newest-1", true);
    // 1.36.3's only class was the second: stopped before the third began.
    assertThat(seen.get("newest-3").alive()).containsEntry("middle-2", false);
    // 1.37.2's last class was the third.
    assertThat(seen.get("oldest-4").alive())
        .containsEntry("newest-1", false)
        .containsEntry("middle-2", false);
    assertThat(seen.get("none-5").alive()).containsEntry("oldest-4", false);
    // At most two at once (while the second class ran), where the run used three.
    assertThat(peakAlive(seen)).isEqualTo(2);
  }

  void withoutThePlanEveryControlPlaneLivesToTheRunsEnd() {
    // A launcher that loads no listeners: what a run the listener cannot see gets.
    Map<String, Seen> seen =
        runSuite(
            LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false).build(),
            ClassOrderer.OrderAnnotation.class);

    assertThat(seen.get("newest-3").pid()).isEqualTo(seen.get("newest-1").pid());
    assertThat(seen.get("none-5").alive())
        .containsEntry("newest-1", true)
        .containsEntry("middle-2", true)
        .containsEntry("oldest-4", true);
    assertThat(peakAlive(seen)).isEqualTo(3);
  }

  /** Runs the five classes in order; what each saw, by label. Every control plane stopped after. */
  void theControlPlaneClassOrderRunsOneControlPlaneAtATime() {
    // The same classes, given in the order of their @Order, put in groups by control plane.
    Map<String, Seen> seen = runSuite(LauncherConfig.DEFAULT, ControlPlaneClassOrder.class);

    assertThat(seen.keySet())
        .containsExactly("none-5", "newest-1", "newest-3", "middle-2", "oldest-4");
    assertThat(seen.get("newest-3").pid()).isEqualTo(seen.get("newest-1").pid());
    assertThat(peakAlive(seen)).isEqualTo(1);
  }

  /** Runs the five classes in {@code order}; what each saw, by label. Every one stopped after. */
  void theFirstClassesControlPlaneIsAskedForBeforeTheClassBegins() {
    ControlPlaneOptions first =
        ControllerTestExtension.read(SuitePlanScenarios.FirstOnNewestScenario.class).controlPlane();
    List<Integer> holdsAtClassStart = new ArrayList<>();
    TestExecutionListener atClassStart =
        new TestExecutionListener() {
          @Override
          public void executionStarted(TestIdentifier id) {
            if (id.getSource().orElse(null) instanceof ClassSource c
                && c.getJavaClass() == SuitePlanScenarios.FirstOnNewestScenario.class) {
              holdsAtClassStart.add(RunningControlPlanes.holders(first));
            }
          }
        };
    runSuite(LauncherConfig.DEFAULT, ClassOrderer.OrderAnnotation.class, atClassStart);

    // Before the class's own callbacks: the run's plan holds it, and its start has begun.
    assertThat(holdsAtClassStart).singleElement().asInstanceOf(INTEGER).isPositive();
  }

  private static Map<String, Seen> runSuite(
      LauncherConfig launcher, Class<? extends ClassOrderer> order, TestExecutionListener... more) {
    SuitePlanScenarios.clear();
    List<String> failures = new ArrayList<>();
    LauncherFactory.create(launcher)
        .execute(
            LauncherDiscoveryRequestBuilder.request()
                .selectors(
                    selectClass(SuitePlanScenarios.FirstOnNewestScenario.class),
                    selectClass(SuitePlanScenarios.OnlyOnMiddleScenario.class),
                    selectClass(SuitePlanScenarios.LastOnNewestScenario.class),
                    selectClass(SuitePlanScenarios.OnlyOnOldestScenario.class),
                    selectClass(SuitePlanScenarios.WithoutControlPlaneScenario.class))
                .configurationParameter("junit.jupiter.testclass.order.default", order.getName())
                .build(),
            Stream.concat(Stream.of(failed(failures)), Stream.of(more))
                .toArray(TestExecutionListener[]::new));
    assertThat(failures).as("the suite's failures").isEmpty();
    Map<String, Seen> seen = new java.util.LinkedHashMap<>();
    SuitePlanScenarios.SEEN.forEach(s -> seen.put(s.label(), s));
    for (Seen s : seen.values()) {
      if (s.pid() > 0) {
        assertThat(ProcessHandle.of(s.pid()).map(ProcessHandle::isAlive))
            .as("the apiserver of %s after the run", s.label())
            .isIn(Optional.empty(), Optional.of(false));
      }
    }
    return seen;
  }

  /** Collects what failed into {@code failures}. */
  private static TestExecutionListener failed(List<String> failures) {
    return new TestExecutionListener() {
      @Override
      public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
          failures.add(id.getDisplayName() + ": " + result.getThrowable().orElse(null));
        }
      }
    };
  }

  /** The most apiservers of the suite alive at once (distinct processes), as the classes saw. */
  private static long peakAlive(Map<String, Seen> seen) {
    return seen.values().stream()
        .mapToLong(
            s -> {
              java.util.Set<Long> alive = new java.util.HashSet<>();
              if (s.pid() > 0) {
                alive.add(s.pid());
              }
              s.alive()
                  .forEach(
                      (label, up) -> {
                        if (up) {
                          alive.add(seen.get(label).pid());
                        }
                      });
              return alive.size();
            })
        .max()
        .orElse(0);
  }
}
