package io.github.kubeharness.samples.greeting;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.spring.EnableKubeHarness;
import io.github.kubeharness.spring.KubeHarness;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/** Fails on purpose (run by FailureReportIT, not by the build): its report is what is checked. */
@SpringBootTest
@EnableKubeHarness(profile = "standard", crdClasses = Greeting.class)
class FailingGreetingScenario {

  @Autowired KubeHarness kube;

  @Test
  void expectsAMessageTheOperatorNeverWrites() {
    kube.client().resources(Greeting.class).resource(Greeting.named("wrong", "actual")).create();
    eventually(kube.client().configMaps().withName("wrong"))
        .within(Duration.ofSeconds(3))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "expected"));
  }
}
