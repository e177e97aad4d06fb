package io.github.kubeharness.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs scenario classes (test classes that are not part of the suite, named {@code *Scenario}) with
 * JUnit's {@link EngineTestKit}, as a user's build would run them, and collects their outcomes.
 */
final class ScenarioRunner {

  /** The outcome of one test, or of a container that did not succeed. */
  record Outcome(String displayName, TestExecutionResult.Status status, Throwable failure) {}

  private ScenarioRunner() {}

  static List<Outcome> run(Map<String, String> configuration, Class<?>... classes) {
    Events events =
        EngineTestKit.engine("junit-jupiter")
            .selectors(Arrays.stream(classes).map(c -> (DiscoverySelector) selectClass(c)).toList())
            .configurationParameters(configuration)
            .execute()
            .allEvents();
    Map<UniqueId, TestDescriptor> descriptors = new HashMap<>();
    events.stream().map(Event::getTestDescriptor).forEach(d -> descriptors.put(d.getUniqueId(), d));
    return events.finished().stream()
        .filter(e -> e.getTestDescriptor().isTest() || !succeeded(e))
        .map(
            e ->
                new Outcome(
                    displayName(e.getTestDescriptor(), descriptors),
                    result(e).getStatus(),
                    result(e).getThrowable().orElse(null)))
        .toList();
  }

  /**
   * A test's display name; a run of a test template (a matrix test's version) is prefixed with its
   * method's, as reports show it: {@code reconciles() [k8s 1.36.3]}.
   */
  private static String displayName(TestDescriptor test, Map<UniqueId, TestDescriptor> all) {
    return test.getParent()
        .map(parent -> all.getOrDefault(parent.getUniqueId(), parent))
        .filter(parent -> parent.getSource().filter(s -> s instanceof MethodSource).isPresent())
        .map(parent -> parent.getDisplayName() + " " + test.getDisplayName())
        .orElse(test.getDisplayName());
  }

  private static TestExecutionResult result(Event event) {
    return event.getRequiredPayload(TestExecutionResult.class);
  }

  private static boolean succeeded(Event event) {
    return result(event).getStatus() == TestExecutionResult.Status.SUCCESSFUL;
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
