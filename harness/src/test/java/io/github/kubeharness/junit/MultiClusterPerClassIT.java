package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.fixtures.FanOutController;
import io.github.kubeharness.junit.fixtures.Widget;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code clusters} with {@code namespaceMode = PER_CLASS}: one namespace per cluster for the whole
 * class, there in {@code @BeforeAll}, and the controllers running across its tests.
 */
@ControllerTest(
    backend = "local", // several clusters: the local backend (docs/multi-cluster.md)
    clusters = {"hub", "edge"},
    crds = "src/test/resources/crds",
    controllers = FanOutController.class,
    namespaceMode = NamespaceMode.PER_CLASS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MultiClusterPerClassIT {

  String namespace;

  @BeforeAll
  void createTheWidget(KubernetesClient hub, @Cluster("edge") @TestNamespace String edgeNamespace) {
    namespace = edgeNamespace;
    hub.resource(Widget.named("shared", "for the class")).create();
  }

  @Test
  @Order(1)
  void theEdgeGetsItInTheClassNamespace(@Cluster("edge") KubernetesClient edge) {
    assertThat(edge.getNamespace()).isEqualTo(namespace);
    eventually(edge.configMaps().withName("widget-shared")).exists();
  }

  @Test
  @Order(2)
  void aLaterTestSeesTheSameNamespaceOnBothClusters(
      @TestNamespace String hubNamespace, @Cluster("edge") KubernetesClient edge) {
    assertThat(hubNamespace).isEqualTo(namespace);
    assertThat(edge.configMaps().withName("widget-shared").get()).isNotNull();
  }
}
