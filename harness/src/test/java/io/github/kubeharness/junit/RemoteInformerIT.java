package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.fixtures.RemoteConfigMapReconciler;
import io.github.kubeharness.junit.fixtures.Widget;
import org.junit.jupiter.api.Test;

/**
 * JOSDK's multi-cluster informer shape (its {@code InformerRemoteClusterIT}) on two clusters: a
 * reconciler on the first cluster keeps a ConfigMap on the second, and an event on the second
 * cluster reconciles the primary on the first.
 */
@ControllerTest(
    backend = "local", // several clusters: the local backend (docs/multi-cluster.md)
    clusters = {"primary", "remote"},
    crds = "src/test/resources/crds",
    reconcilers = RemoteConfigMapReconciler.class)
class RemoteInformerIT {

  KubernetesClient primary;

  @Cluster("remote")
  KubernetesClient remote;

  @Test
  void aChangeOnTheRemoteClusterReconcilesThePrimaryAgain() {
    primary.resource(Widget.named("w", "desired")).create();
    eventually(remote.configMaps().withName("w"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "desired"));

    ConfigMap drifted = remote.configMaps().withName("w").get();
    drifted.getData().put("message", "drifted");
    remote.resource(drifted).update();

    // Only the remote informer's event can bring it back: nothing changed on the primary.
    eventually(remote.configMaps().withName("w"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "desired"));
    assertThat(primary.configMaps().withName("w").get()).isNull();
  }
}
