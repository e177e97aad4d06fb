package io.github.kubeharness.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Map;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Child JVM of {@link ParallelSuiteTimes}: runs {@link TwentyClassesScenario}'s classes through the
 * JUnit Platform Launcher, as a build tool does, one class after another ({@code serial}) or with
 * the set-up docs/controller-test.md gives ({@code parallel}: classes at the same time, JUnit's
 * default of one thread per core; {@code parallel-4}: methods too, on four threads). Prints {@code
 * SUITE <wall ms> <tests> <failed>}.
 */
public final class ParallelSuiteChild {

  /** The configuration of each mode, as a junit-platform.properties would hold it. */
  static final Map<String, Map<String, String>> MODES =
      Map.of(
          "serial",
          Map.of(),
          "parallel",
          Map.of(
              "junit.jupiter.execution.parallel.enabled", "true",
              "junit.jupiter.execution.parallel.mode.classes.default", "concurrent"),
          "parallel-4",
          Map.of(
              "junit.jupiter.execution.parallel.enabled", "true",
              "junit.jupiter.execution.parallel.mode.default", "concurrent",
              "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
              "junit.jupiter.execution.parallel.config.strategy", "fixed",
              "junit.jupiter.execution.parallel.config.fixed.parallelism", "4"));

  public static void main(String[] args) {
    Map<String, String> configuration = MODES.get(args[0]);
    if (configuration == null) {
      throw new IllegalArgumentException(
          "mode '" + args[0] + "': expected one of " + MODES.keySet());
    }
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(TwentyClassesScenario.CLASSES.stream().map(c -> selectClass(c)).toList())
            .configurationParameters(configuration)
            .build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    long t0 = System.nanoTime();
    LauncherFactory.create().execute(request, listener);
    long wall = (System.nanoTime() - t0) / 1_000_000;
    TestExecutionSummary summary = listener.getSummary();
    summary
        .getFailures()
        .forEach(
            f ->
                System.out.println(
                    "FAILED " + f.getTestIdentifier().getDisplayName() + ": " + f.getException()));
    System.out.println(
        "SUITE "
            + wall
            + " "
            + summary.getTestsFoundCount()
            + " "
            + summary.getTotalFailureCount());
    // The shutdown hook stops the control plane: its stop is not part of what the suite waits for.
    System.exit(0);
  }
}
