package io.github.kubeharness.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs scenario classes (test classes that are not part of the suite, named {@code *Scenario})
 * through the JUnit Platform launcher, as a user's build would, and collects their outcomes.
 */
final class ScenarioRunner {

  /** The outcome of one test or container. */
  record Outcome(String displayName, TestExecutionResult.Status status, Throwable failure) {}

  private ScenarioRunner() {}

  static List<Outcome> run(Map<String, String> configuration, Class<?>... classes) {
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
    for (Class<?> c : classes) {
      request.selectors(selectClass(c));
    }
    request.configurationParameters(configuration);
    LauncherDiscoveryRequest discovery = request.build();
    List<Outcome> outcomes = new ArrayList<>();
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (id.getType().isTest()
                || result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
              synchronized (outcomes) {
                outcomes.add(
                    new Outcome(
                        id.getDisplayName(),
                        result.getStatus(),
                        result.getThrowable().orElse(null)));
              }
            }
          }
        };
    LauncherFactory.create().execute(discovery, listener);
    return outcomes;
  }

  static List<Outcome> run(Class<?>... classes) {
    return run(Map.of(), classes);
  }

  /** The messages of a failure, its causes and its suppressed exceptions (report summaries). */
  static String fullMessage(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getMessage()).append('\n');
      for (Throwable s : c.getSuppressed()) {
        all.append(s.getMessage()).append('\n');
      }
    }
    return all.toString();
  }

  /** The single failure among the outcomes; fails the calling test otherwise. */
  static Throwable onlyFailure(List<Outcome> outcomes) {
    List<Throwable> failures =
        outcomes.stream()
            .filter(o -> o.status() == TestExecutionResult.Status.FAILED)
            .map(Outcome::failure)
            .toList();
    if (failures.size() != 1) {
      throw new AssertionError("expected exactly one failure, got " + outcomes);
    }
    return failures.get(0);
  }
}
