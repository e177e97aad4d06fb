package io.github.kubeharness.junit.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Fails on purpose: its report is what FailureReportIT checks. */
@ControllerTest(crds = "src/test/resources/crds", reconcilers = WidgetReconciler.class)
public class FailingWidgetScenario {

  KubernetesClient client;

  @Test
  void expectsAMessageTheControllerNeverWrites() {
    client.resources(Widget.class).resource(Widget.named("broken", "actual message")).create();
    eventually(client.configMaps().withName("broken"))
        .within(Duration.ofSeconds(3))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "expected message"));
  }
}
