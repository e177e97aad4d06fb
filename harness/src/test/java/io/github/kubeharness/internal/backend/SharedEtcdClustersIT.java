package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.Backend;
import io.github.kubeharness.ComponentProcesses;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Two clusters on one etcd (the local backend's {@code clusters}): each apiserver its own CA and
 * key prefix, so neither sees the other's objects nor trusts the other's credentials.
 */
class SharedEtcdClustersIT {

  @Test
  void aClusterBesideAnotherSharesItsEtcdButNothingElse() {
    HarnessControlPlane hub =
        Backends.newControlPlane(
            ControlPlaneOptions.builder()
                .withBackend(Backend.LOCAL)
                .withProfile(Profile.MINIMAL)
                .build());
    hub.start();
    HarnessControlPlane edge = Backends.newClusterBeside(hub, "edge-1", "SharedEtcdClustersIT");
    try {
      edge.start();
      assertThat(edge.apiServerUrl()).isNotEqualTo(hub.apiServerUrl());
      // One etcd process: the hub's; the edge runs an apiserver only.
      assertThat(edge.logDirectory().orElseThrow().resolve("etcd.log")).doesNotExist();
      try (KubernetesClient hubClient = hub.newClient();
          KubernetesClient edgeClient = edge.newClient()) {
        hubClient
            .configMaps()
            .inNamespace("default")
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("only-on-the-hub")
                    .endMetadata()
                    .build())
            .create();
        assertThat(edgeClient.configMaps().inNamespace("default").withName("only-on-the-hub").get())
            .isNull();
        // Both have their own default namespace, written under their own prefix.
        assertThat(edgeClient.namespaces().withName("default").get()).isNotNull();
      }
      // The edge's CA signs nothing the hub accepts: credentials do not cross clusters.
      io.fabric8.kubernetes.client.Config crossed =
          new io.fabric8.kubernetes.client.ConfigBuilder(edge.newClient().getConfiguration())
              .withMasterUrl(hub.apiServerUrl())
              .withTrustCerts(true)
              .withDisableHostnameVerification(true)
              .build();
      try (KubernetesClient wrong =
          new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(crossed).build()) {
        assertThatThrownBy(() -> wrong.namespaces().list())
            .isInstanceOf(KubernetesClientException.class);
      }
    } finally {
      edge.stop();
      hub.stop();
    }
  }

  @Test
  void aClusterBesideOneThatIsNotRunningNamesItself() {
    HarnessControlPlane hub =
        Backends.newControlPlane(
            ControlPlaneOptions.builder()
                .withBackend(Backend.LOCAL)
                .withProfile(Profile.MINIMAL)
                .build());
    HarnessControlPlane edge = Backends.newClusterBeside(hub, "edge-2", "SharedEtcdClustersIT");
    assertThatThrownBy(edge::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cluster 'edge-2' needs the etcd")
        .hasMessageContaining("start that control plane first");
  }

  @Test
  void aClusterThatCannotReachTheSharedEtcdNamesItselfInItsFailure() {
    HarnessControlPlane hub =
        Backends.newControlPlane(
            ControlPlaneOptions.builder()
                .withBackend(Backend.LOCAL)
                .withProfile(Profile.MINIMAL)
                .withStartTimeout(Duration.ofSeconds(5))
                .build());
    hub.start();
    try {
      // The hub's etcd gone: the next cluster's apiserver never gets ready.
      ProcessHandle etcd = ProcessHandle.of(ComponentProcesses.of(hub).get("etcd")).orElseThrow();
      etcd.destroyForcibly();
      etcd.onExit().join();
      HarnessControlPlane edge = Backends.newClusterBeside(hub, "edge-3", "SharedEtcdClustersIT");
      assertThatThrownBy(edge::start)
          .isInstanceOf(KubeHarnessException.class)
          .hasMessageContaining(
              "Cluster 'edge-3' (an apiserver on the shared etcd) failed to start");
      // Nothing of it is left running.
      assertThat(edge.isRunning()).isFalse();
    } finally {
      try {
        hub.stop();
      } catch (RuntimeException e) {
        // its etcd was killed on purpose
      }
    }
  }

  @Test
  void theExistingBackendRefusesClustersNamingTheOnesThatCan() {
    HarnessControlPlane existing =
        Backends.newControlPlane(
            ControlPlaneOptions.builder().withBackend(Backend.EXISTING).build());
    assertThatThrownBy(() -> Backends.newClusterBeside(existing, "edge-1", "MyIT"))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("MyIT")
        .hasMessageContaining("several clusters in one test")
        .hasMessageContaining("local");
  }
}
