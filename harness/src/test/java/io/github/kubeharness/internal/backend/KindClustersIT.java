package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.Cluster;
import io.github.kubeharness.junit.ControllerTest;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code clusters} on the kind backend: each cluster a kind cluster of its own, a node each. Tagged
 * "kind" ({@code make test-kind}, run by {@code .ci/run}).
 */
@Tag("kind")
@ControllerTest(
    backend = "kind",
    clusters = {"hub", "edge-1"})
class KindClustersIT {

  @Test
  void eachClusterIsAKindClusterOfItsOwnWithItsOwnNode(
      ControlPlane hubPlane,
      KubernetesClient hub,
      @Cluster("edge-1") ControlPlane edgePlane,
      @Cluster("edge-1") KubernetesClient edge) {
    assertThat(edgePlane.backend()).isEqualTo(Backend.KIND);
    assertThat(edgePlane.apiServerUrl()).isNotEqualTo(hubPlane.apiServerUrl());
    List<String> hubNodes = names(hub.nodes().list().getItems());
    List<String> edgeNodes = names(edge.nodes().list().getItems());
    assertThat(hubNodes).hasSize(1);
    assertThat(edgeNodes).hasSize(1).doesNotContainAnyElementsOf(hubNodes);

    hub.configMaps()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("only-on-the-hub")
                .endMetadata()
                .build())
        .create();
    assertThat(edge.configMaps().withName("only-on-the-hub").get()).isNull();
  }

  private static List<String> names(List<Node> nodes) {
    return nodes.stream().map(n -> n.getMetadata().getName()).toList();
  }
}
