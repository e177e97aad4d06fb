package io.github.kubeharness.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * A child JVM of the bench on a sample's test class path (Spring's or Quarkus'): runs one test
 * class and prints {@code FIRST_TEST <ms>}, from the launch to the end of the class's first test —
 * the control plane's start, the framework's application start and the test, what the first test
 * class of a {@code mvn verify} waits for. Exits 1 when a test fails.
 */
public final class FrameworkFirstTest {

  private FrameworkFirstTest() {}

  public static void main(String[] args) throws Exception {
    // By name: Quarkus loads its test classes itself (its launcher hooks), not from here.
    String testClass = args[0];
    List<String> failures = new ArrayList<>();
    long[] firstEnd = {0};
    long start = System.nanoTime();
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(),
            new TestExecutionListener() {
              @Override
              public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                  failures.add(id.getDisplayName() + ": " + result.getThrowable().orElse(null));
                }
                if (id.isTest() && firstEnd[0] == 0) {
                  firstEnd[0] = System.nanoTime();
                }
              }
            });
    if (!failures.isEmpty() || firstEnd[0] == 0) {
      System.err.println("FrameworkFirstTest " + testClass + " failed: " + failures);
      System.exit(1);
    }
    System.out.println("FIRST_TEST " + (firstEnd[0] - start) / 1_000_000.0);
    System.exit(0);
  }
}
