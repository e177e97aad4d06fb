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
 * Fails on purpose; not run by the build (its name does not end in IT). Run it by hand, {@code
 * -Dit.test=FailingGreetingScenario}, to see the report it leaves under {@code
 * target/kube-harness/reports/}.
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
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "expected"));
  }
}
