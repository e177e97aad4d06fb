package io.github.kubeharness.junit.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The controller's RBAC lacks "create configmaps": under its own identity the test must fail. */
@ControllerTest(
    crds = "src/test/resources/crds",
    reconcilers = WidgetReconciler.class,
    rbac = "src/test/resources/rbac/widget-controller-no-configmaps")
public class MissingVerbScenario {

  KubernetesClient client;

  @Test
  void controllerCannotCreateItsConfigMap() {
    client.resources(Widget.class).resource(Widget.named("denied", "hello")).create();
    eventually(client.configMaps().withName("denied")).within(Duration.ofSeconds(5)).exists();
  }
}
