package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Clusters;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.junit.fixtures.FanOutController;
import io.github.kubeharness.junit.fixtures.MirrorControllerFactory;
import io.github.kubeharness.junit.fixtures.Widget;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The hub/edge sample: a controller on the hub fans each Widget out as a ConfigMap to every edge,
 * where a controller placed on each edge mirrors it — three API servers on one etcd.
 */
// snippet:hub-edge (docs/multi-cluster.md)
@ControllerTest(
    backend = "local", // one etcd for the three, and Faults per cluster (docs/multi-cluster.md)
    clusters = {"hub", "edge-1", "edge-2"},
    crds = "src/test/resources/crds",
    controllers = FanOutController.class)
@ClusterControllers(cluster = "edge-1", controllers = MirrorControllerFactory.class)
@ClusterControllers(cluster = "edge-2", controllers = MirrorControllerFactory.class)
class MultiClusterIT {

  KubernetesClient hub; // un-annotated: the first cluster's

  @Cluster("edge-1")
  KubernetesClient edge1;

  @Cluster("edge-2")
  KubernetesClient edge2;

  @Test
  void aWidgetOnTheHubReachesEveryEdge() {
    hub.resource(Widget.named("demo", "hello edges")).create();

    for (KubernetesClient edge : new KubernetesClient[] {edge1, edge2}) {
      eventually(edge.configMaps().withName("widget-demo"))
          .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "hello edges"));
      // The edge's own controller saw it there.
      eventually(edge.configMaps().withName("widget-demo-mirror")).exists();
    }
    assertThat(hub.configMaps().withName("widget-demo").get()).isNull();
  }

  // end-snippet

  @Test
  void eachClusterIsAnApiServerOfItsOwnWithTheCrdsAndTheTestNamespace(
      ControlPlane first,
      @Cluster("edge-1") ControlPlane edge,
      @TestNamespace String namespace,
      @Cluster("edge-2") @TestNamespace String edgeNamespace,
      Clusters clusters) {
    assertThat(clusters.names()).containsExactly("hub", "edge-1", "edge-2");
    assertThat(first.apiServerUrl()).isNotEqualTo(edge.apiServerUrl());
    assertThat(clusters.controlPlane("hub").apiServerUrl()).isEqualTo(first.apiServerUrl());
    assertThat(edgeNamespace).isEqualTo(namespace);
    for (String name : clusters.names()) {
      KubernetesClient client = clusters.client(name);
      assertThat(client.getNamespace()).isEqualTo(namespace);
      assertThat(client.namespaces().withName(namespace).get()).as(name).isNotNull();
      assertThat(client.resources(Widget.class).list().getItems()).as(name).isEmpty();
    }
    // What one cluster holds, the others do not: each has its own etcd key prefix.
    edge1.resource(Widget.named("only-on-edge-1", "here")).create();
    assertThat(hub.resources(Widget.class).withName("only-on-edge-1").get()).isNull();
    assertThat(edge2.resources(Widget.class).withName("only-on-edge-1").get()).isNull();
  }

  @Test
  void anEdgeWhoseApiServerWentDownGetsTheNextChange(@Cluster("edge-1") Faults edgeFaults) {
    hub.resource(Widget.named("demo", "before")).create();
    eventually(edge1.configMaps().withName("widget-demo-mirror"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "before"));

    // Only edge-1's API server: the hub and edge-2 keep answering meanwhile.
    edgeFaults.apiServerDown(Duration.ofSeconds(2));
    assertThat(edge2.configMaps().withName("widget-demo").get()).isNotNull();

    Widget widget = hub.resources(Widget.class).withName("demo").get();
    widget.getSpec().message = "after";
    hub.resource(widget).update();
    // The hub's controller writes to the restarted edge; the edge's own controller, whose watch
    // the restart broke, has watched again.
    eventually(edge1.configMaps().withName("widget-demo-mirror"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "after"));
    eventually(edge2.configMaps().withName("widget-demo-mirror"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "after"));
  }

  @Test
  void controllersPlacedOnAnEdgeRunThereOnly(
      @Cluster("edge-1") MirrorControllerFactory onEdge1, FanOutController onHub) {
    assertThat(onEdge1).isNotNull();
    assertThat(onHub).isNotNull();
    hub.configMaps()
        .resource(
            new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata()
                .withName("on-the-hub")
                .addToLabels("mirror", "true")
                .endMetadata()
                .build())
        .create();
    edge1
        .configMaps()
        .resource(
            new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata()
                .withName("on-edge-1")
                .addToLabels("mirror", "true")
                .endMetadata()
                .build())
        .create();
    eventually(edge1.configMaps().withName("on-edge-1-mirror")).exists();
    // No mirror controller runs on the hub.
    io.github.kubeharness.assertions.KubeAssertions.consistently(
            hub.configMaps().withName("on-the-hub-mirror"))
        .doesNotExist();
  }
}
