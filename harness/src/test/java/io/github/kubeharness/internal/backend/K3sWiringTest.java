package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.settings.SettingsResolver;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.core.CreateContainerCmdModifier;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.shaded.com.github.dockerjava.core.command.CreateContainerCmdImpl;

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
    assertThat(K3sControlPlane.image("1.37.2", k3s())).isEqualTo("rancher/k3s:v1.37.2-k3s1");
  }

  @Test
  void imageCanBeOverridden() {
    System.setProperty(K3sControlPlane.IMAGE_SETTING, "mirror.example/k3s:v1.36.3-k3s2");
    assertThat(K3sControlPlane.image("1.37.2", k3s())).isEqualTo("mirror.example/k3s:v1.36.3-k3s2");
  }

  @Test
  void addOnsATestDoesNotNeedAreDisabled() {
    assertThat(K3sControlPlane.SERVER_ARGS)
        .startsWith("server")
        .contains("--disable=traefik", "--disable=servicelb", "--disable=metrics-server");
  }

  /**
   * On the host's network k3s's kubelet, kube-proxy and flannel would listen on every interface:
   * the backend refuses, through the same start a test's control plane takes, before Docker is
   * asked for anything (this machine's Docker has no bridge, and no k3s image).
   */
  @Test
  void onTheHostsNetworkK3sIsRefusedWithTheReasonAndTheWayOut() {
    ControlPlaneOptions onHostNetwork =
        SettingsResolver.resolve(
            ControlPlaneOptions.builder()
                .withBackend(BackendOptions.k3s().withNetwork(NetworkMode.HOST))
                .build());
    try (ControlPlane k3s = ControlPlanes.create(onHostNetwork)) {
      assertThatThrownBy(k3s::start)
          .isInstanceOf(KubeHarnessException.class)
          .hasMessageContaining("kubeharness.network=host")
          .hasMessageContaining("10250")
          .hasMessageContaining("udp 8472")
          .hasMessageContaining("bridge network");
    }
    assertThatThrownBy(
            () -> K3sControlPlane.container("rancher/k3s:v1.37.2-k3s1", NetworkMode.HOST))
        .hasMessage(K3sControlPlane.NO_HOST_NETWORK);
  }

  /**
   * Bridge mode: the create command Docker receives binds 6443 and 8443 to 127.0.0.1 only, where
   * Testcontainers alone would publish them on every interface.
   */
  @Test
  void inBridgeModeK3sPublishesItsPortsOnLoopbackOnly() {
    K3sContainer k3s = K3sControlPlane.container("rancher/k3s:v1.37.2-k3s1", NetworkMode.BRIDGE);
    CreateContainerCmd cmd =
        new CreateContainerCmdImpl(notSent -> null, null, "rancher/k3s:v1.37.2-k3s1")
            .withExposedPorts(ExposedPort.tcp(6443), ExposedPort.tcp(8443))
            .withHostConfig(
                HostConfig.newHostConfig()
                    .withPortBindings(PortBinding.parse("6443"), PortBinding.parse("8443"))
                    .withPublishAllPorts(true));
    for (CreateContainerCmdModifier modifier : k3s.getCreateContainerCmdModifiers()) {
      cmd = modifier.modify(cmd);
    }
    Map<ExposedPort, Ports.Binding[]> bindings =
        cmd.getHostConfig().getPortBindings().getBindings();
    assertThat(bindings).containsOnlyKeys(ExposedPort.tcp(6443), ExposedPort.tcp(8443));
    assertThat(bindings.values())
        .allSatisfy(
            each ->
                assertThat(each).extracting(Ports.Binding::getHostIp).containsExactly("127.0.0.1"));
    assertThat(cmd.getHostConfig().getPublishAllPorts()).isFalse();
  }

  @Test
  void theBuilderSetsTheImagesAsTheSettingsDo() {
    ControlPlaneOptions k3s =
        ControlPlaneOptions.builder()
            .withBackend(BackendOptions.k3s().withImage("mirror.example/k3s:v1"))
            .build();
    ControlPlaneOptions container =
        ControlPlaneOptions.builder()
            .withBackend(
                BackendOptions.container().withApiServerImage("mirror.example/apiserver:v1"))
            .build();
    assertThat(K3sControlPlane.image("1.37.2", k3s.backendOptions(BackendOptions.K3s.class)))
        .isEqualTo("mirror.example/k3s:v1");
    assertThat(
            ContainerImages.apiServer(
                "1.37.2", container.backendOptions(BackendOptions.Container.class)))
        .isEqualTo("mirror.example/apiserver:v1");
  }

  // The settings are read when the options are built, as at every entry point.
  private static BackendOptions.K3s k3s() {
    return SettingsResolver.resolve(ControlPlaneOptions.builder().withBackend(Backend.K3S).build())
        .backendOptions(BackendOptions.K3s.class);
  }

  private static BackendOptions.Container container() {
    return SettingsResolver.resolve(
            ControlPlaneOptions.builder().withBackend(Backend.CONTAINER).build())
        .backendOptions(BackendOptions.Container.class);
  }

  @Test
  void containerImagesAreTheUpstreamNames() {
    assertThat(ContainerImages.apiServer("1.37.2", container()))
        .isEqualTo("registry.k8s.io/kube-apiserver:v1.37.2");
    assertThat(ContainerImages.etcd("1.37.2", container()))
        .isEqualTo("registry.k8s.io/etcd:3.7.0-0");
    assertThat(ContainerImages.controllerManager("1.37.2", container()))
        .isEqualTo("registry.k8s.io/kube-controller-manager:v1.37.2");
  }
}
