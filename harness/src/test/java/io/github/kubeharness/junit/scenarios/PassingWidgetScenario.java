package io.github.kubeharness.junit.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import org.junit.jupiter.api.Test;

/** Passes: run beside failing scenarios to show the rest of the JVM goes on. */
@ControllerTest(crds = "src/test/resources/crds", reconcilers = WidgetReconciler.class)
public class PassingWidgetScenario {

  KubernetesClient client;

  @Test
  void widgetIsReconciled() {
    client.resources(Widget.class).resource(Widget.named("fine", "hi")).create();
    eventually(client.configMaps().withName("fine")).exists();
  }
}
