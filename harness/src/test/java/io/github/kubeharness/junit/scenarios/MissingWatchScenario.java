package io.github.kubeharness.junit.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The controller may list widgets but not watch them. JOSDK treats the forbidden watch as fatal
 * and, left to itself, calls System.exit: the test must fail, not the JVM.
 */
@ControllerTest(
    crds = "src/test/resources/crds",
    reconcilers = WidgetReconciler.class,
    rbac = "src/test/resources/rbac/widget-controller-no-watch")
public class MissingWatchScenario {

  KubernetesClient client;

  @Test
  void widgetIsReconciled() {
    client.resources(Widget.class).resource(Widget.named("unwatched", "hi")).create();
    eventually(client.configMaps().withName("unwatched")).within(Duration.ofSeconds(5)).exists();
  }
}
