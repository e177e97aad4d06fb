package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Settings;
import io.github.kubeharness.launch.ControlPlanes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the kind backend says before it creates anything, against the real Docker engine: an absent
 * node image in an offline run names the fix instead of letting kind try to pull it, and a backend
 * without a kubelet refuses {@code loadImage} with the reason.
 */
class KindBackendErrorsIT {

  @AfterEach
  void clearSettings() {
    System.clearProperty(Settings.KIND_IMAGE);
  }

  @Test
  void anAbsentNodeImageOfflineNamesMakeKindImage() {
    System.setProperty(Settings.KIND_IMAGE, "kube-harness/kind-node:v0.0.0-absent");
    ControlPlane kind =
        ControlPlanes.create(
            ControlPlaneOptions.builder().withBackend(Backend.KIND).withOffline(true).build());

    assertThatThrownBy(kind::start)
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("kube-harness/kind-node:v0.0.0-absent is not in the local Docker")
        .hasMessageContaining("make kind-image")
        .hasMessageContaining(Settings.KIND_IMAGE);
  }

  @Test
  void backendsWithoutAKubeletRefuseToLoadImages() {
    try (ControlPlane local =
        ControlPlanes.create(ControlPlaneOptions.builder().withBackend(Backend.LOCAL).build())) {
      assertThatThrownBy(() -> local.loadImage("guestbook-operator:dev"))
          .isInstanceOf(KubeHarnessException.class)
          .hasMessageContaining("the local backend cannot give loadImage")
          .hasMessageContaining("Backends that can: kind")
          .hasMessageContaining("-Dkubeharness.backend=kind");
    }
  }
}
