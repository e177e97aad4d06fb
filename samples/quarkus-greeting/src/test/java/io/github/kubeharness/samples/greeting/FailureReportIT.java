package io.github.kubeharness.samples.greeting;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A failing {@code @QuarkusTest} leaves the usual report: objects, events, API requests. The
 * failing test, {@link FailingGreetingScenario}, runs in the {@code failure-scenario} execution
 * before the integration tests (pom.xml): JUnit's test kit cannot run a Quarkus test inside another
 * test, Quarkus loads its test classes through its own launcher hooks.
 */
class FailureReportIT {

  private static final Path SCENARIO_RESULTS =
      Path.of(
          "target/failure-scenario",
          "TEST-" + FailingGreetingScenario.class.getName() + ".xml");

  private static final Path REPORT =
      Path.of(
          "target/kube-harness/reports",
          FailingGreetingScenario.class.getName(),
          "expectsAMessageTheOperatorNeverWrites");

  @Test
  void aFailingQuarkusTestLeavesItsNamespacesReport() throws IOException {
    assertThat(SCENARIO_RESULTS)
        .as("results of the failure-scenario execution (pom.xml), run before the integration tests")
        .exists();
    assertThat(Files.readString(SCENARIO_RESULTS))
        .as("FailingGreetingScenario must have run and failed")
        .contains("tests=\"1\"", "failures=\"1\"");

    assertThat(Files.readString(REPORT.resolve("objects.yaml")))
        .contains("kind: Greeting", "name: wrong", "message: actual");
    assertThat(Files.readString(REPORT.resolve("api-requests.txt")))
        .contains("create", "greetings", "wrong");
    assertThat(REPORT.resolve("events.txt")).exists();
    assertThat(Files.readString(REPORT.resolve("summary.txt")))
        .contains("kube-harness report: ", "Kubernetes ");

    // Checked once: a later run that does not fail the scenario anew finds nothing to pass on.
    delete(REPORT);
    Files.delete(SCENARIO_RESULTS);
  }

  private static void delete(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
