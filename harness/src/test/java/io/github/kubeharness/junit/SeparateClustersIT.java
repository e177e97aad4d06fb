package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.Clusters;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.fixtures.FanOutController;
import io.github.kubeharness.junit.fixtures.MirrorControllerFactory;
import io.github.kubeharness.junit.fixtures.Widget;
import org.junit.jupiter.api.Test;

/**
 * {@code clusters} on a backend with no etcd to share: each cluster a whole control plane of its
 * own (the container backend: an etcd and an apiserver container per cluster). The hub/edge sample
 * works across them as it does on the local backend's one etcd.
 */
@ControllerTest(
    backend = "container",
    clusters = {"hub", "edge-1"},
    crds = "src/test/resources/crds",
    controllers = FanOutController.class)
@ClusterControllers(cluster = "edge-1", controllers = MirrorControllerFactory.class)
class SeparateClustersIT {

  KubernetesClient hub;

  @Cluster("edge-1")
  KubernetesClient edge;

  @Test
  void aWidgetOnTheHubReachesAnEdgeThatIsAControlPlaneOfItsOwn(
      ControlPlane first, @Cluster("edge-1") ControlPlane edgePlane, Clusters clusters) {
    assertThat(clusters.names()).containsExactly("hub", "edge-1");
    assertThat(edgePlane.backend()).isEqualTo(Backend.CONTAINER);
    assertThat(edgePlane.apiServerUrl()).isNotEqualTo(first.apiServerUrl());
    // Each its own etcd: the containers of one are not the other's.
    assertThat(edgePlane.logDirectory()).isNotEqualTo(first.logDirectory());

    hub.resource(Widget.named("demo", "hello edge")).create();
    eventually(edge.configMaps().withName("widget-demo"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "hello edge"));
    eventually(edge.configMaps().withName("widget-demo-mirror")).exists();
    assertThat(hub.configMaps().withName("widget-demo").get()).isNull();
    assertThat(edge.resources(Widget.class).withName("demo").get()).isNull();
  }
}
