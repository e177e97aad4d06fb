package io.github.kubeharness.samples.greeting;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.quarkus.InjectKubeHarness;
import io.github.kubeharness.quarkus.KubeHarness;
import io.github.kubeharness.quarkus.WithKubeHarness;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Fails on purpose, to leave a report under {@code target/kube-harness/reports/}: failsafe's {@code
 * failure-scenario} execution runs it before the integration tests (pom.xml; its name does not end
 * in IT, so failsafe does not), and {@link FailureReportIT} checks what it left.
 */
@QuarkusTest
@WithKubeHarness(
    profile = "standard",
    manifests = "config/rbac",
    serviceAccount = "greeting-system/greeting-operator")
class FailingGreetingScenario {

  @InjectKubeHarness KubeHarness kube;

  @Test
  void expectsAMessageTheOperatorNeverWrites() {
    kube.client().resources(Greeting.class).resource(Greeting.named("wrong", "actual")).create();
    eventually(kube.client().configMaps().withName("wrong"))
        .within(Duration.ofSeconds(3))
        .satisfies(
            cm ->
                assertThat(cm.getData())
                    // Read in every build log: the failure is the point, FailureReportIT checks it.
                    .as("a failure on purpose, whose report FailureReportIT checks")
                    .containsEntry("message", "expected"));
  }
}
