package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** namespaceMode = PER_CLASS: one namespace and one running controller for the whole class. */
@ControllerTest(
    crdClasses = Widget.class,
    reconcilers = WidgetReconciler.class,
    namespaceMode = NamespaceMode.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PerClassNamespaceIT {

  static String namespaceOfBeforeAll;
  KubernetesClient client;
  @TestNamespace String namespace;

  @BeforeAll
  static void namespaceExistsInBeforeAll(@TestNamespace String namespace, KubernetesClient client) {
    namespaceOfBeforeAll = namespace;
    client.resources(Widget.class).resource(Widget.named("shared", "from before all")).create();
  }

  @Test
  @Order(1)
  void firstTestSeesTheClassNamespace() {
    assertThat(namespace).isEqualTo(namespaceOfBeforeAll).startsWith("perclassnamespaceit-");
    eventually(client.configMaps().withName("shared")).exists();
  }

  @Test
  @Order(2)
  void secondTestSeesTheSameNamespaceAndObjects() {
    assertThat(namespace).isEqualTo(namespaceOfBeforeAll);
    assertThat(client.resources(Widget.class).withName("shared").get()).isNotNull();
  }
}
