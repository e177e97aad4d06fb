package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The k3s backend's wiring. Its real runs need the rancher/k3s image, which only the GitHub
 * workflow can pull (K3sBackendIT, tag "k3s").
 */
class K3sWiringTest {

  @AfterEach
  void clear() {
    System.clearProperty(K3sControlPlane.IMAGE_SETTING);
  }

  @Test
  void imageFollowsTheKubernetesVersion() {
    assertThat(K3sControlPlane.image("1.37.2")).isEqualTo("rancher/k3s:v1.37.2-k3s1");
  }

  @Test
  void imageCanBeOverridden() {
    System.setProperty(K3sControlPlane.IMAGE_SETTING, "mirror.example/k3s:v1.36.3-k3s2");
    assertThat(K3sControlPlane.image("1.37.2")).isEqualTo("mirror.example/k3s:v1.36.3-k3s2");
  }

  @Test
  void addOnsATestDoesNotNeedAreDisabled() {
    assertThat(K3sControlPlane.SERVER_ARGS)
        .startsWith("server")
        .contains("--disable=traefik", "--disable=servicelb", "--disable=metrics-server");
  }

  @Test
  void containerImagesAreTheUpstreamNames() {
    assertThat(ContainerImages.apiServer("1.37.2"))
        .isEqualTo("registry.k8s.io/kube-apiserver:v1.37.2");
    assertThat(ContainerImages.etcd("1.37.2")).isEqualTo("registry.k8s.io/etcd:3.7.0-0");
    assertThat(ContainerImages.controllerManager("1.37.2"))
        .isEqualTo("registry.k8s.io/kube-controller-manager:v1.37.2");
  }
}
