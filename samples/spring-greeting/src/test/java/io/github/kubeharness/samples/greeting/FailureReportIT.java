package io.github.kubeharness.samples.greeting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.junit.jupiter.api.Test;

/** A failing test of a Spring context leaves the usual report: objects, events, API requests. */
class FailureReportIT {

  @Test
  void aFailingTestLeavesItsNamespacesReport() throws Exception {
    Events tests =
        EngineTestKit.engine("junit-jupiter")
            .selectors(selectClass(FailingGreetingScenario.class))
            .execute()
            .testEvents();
    tests.assertStatistics(stats -> stats.started(1).failed(1));

    Path report =
        Path.of(
            "target/kube-harness/reports",
            FailingGreetingScenario.class.getName(),
            "expectsAMessageTheOperatorNeverWrites");
    assertThat(Files.readString(report.resolve("objects.yaml")))
        .contains("kind: Greeting", "name: wrong", "message: actual");
    assertThat(Files.readString(report.resolve("api-requests.txt")))
        .contains("create", "greetings", "wrong");
    assertThat(report.resolve("events.txt")).exists();
    assertThat(Files.readString(report.resolve("summary.txt"))).contains("kube-harness report: ");
  }
}
