package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.launch.ControlPlanes;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The container backend on the Docker engine of this machine, with and without its default bridge
 * network ({@code dockerd --bridge=none} has none): a bridge nobody chose becomes the host network
 * with one line saying why, a chosen bridge is refused naming the missing network and the fix; on
 * an engine with the bridge, both stay on bridge networking and nothing is said.
 */
class DockerBridgeIT {

  private static final String NOTE =
      "container network -> host: the Docker engine at unix:///var/run/docker.sock has no default"
          + " bridge network (dockerd --bridge=none); set kubeharness.network to choose";

  @Test
  void anUnchosenBridgeBecomesTheHostNetworkWhereTheEngineHasNoBridge() throws Exception {
    List<String> progress = new CopyOnWriteArrayList<>();
    Set<String> before = DockerContainers.ids();
    try (ControlPlane controlPlane =
        ControlPlanes.create(
            ControlPlaneOptions.builder()
                .withBackend(BackendOptions.container())
                .withProfile(Profile.MINIMAL)
                .withProgress(progress::add)
                .build())) {
      controlPlane.start();
      Set<String> ours = DockerContainers.ids();
      ours.removeAll(before);
      assertThat(ours).isNotEmpty();
      boolean bridge = engineHasDefaultBridge();
      for (String id : ours) {
        String network = Lockdown.containerNetworkMode(id);
        if (bridge) {
          assertThat(network).as("network of %s", Lockdown.containerImage(id)).isNotEqualTo("host");
        } else {
          assertThat(network).as("network of %s", Lockdown.containerImage(id)).isEqualTo("host");
        }
      }
      if (!bridge) {
        assertThat(progress).containsOnlyOnce(NOTE);
      } else {
        assertThat(progress).doesNotContain(NOTE);
      }
    }
  }

  @Test
  void aChosenBridgeIsRefusedWhereTheEngineHasNoBridge() throws Exception {
    ControlPlaneOptions bridge =
        ControlPlaneOptions.builder()
            .withBackend(BackendOptions.container().withNetwork(NetworkMode.BRIDGE))
            .withProfile(Profile.MINIMAL)
            .build();
    try (ControlPlane controlPlane = ControlPlanes.create(bridge)) {
      if (engineHasDefaultBridge()) {
        controlPlane.start();
        assertThat(controlPlane.isRunning()).isTrue();
        return;
      }
      assertThatThrownBy(controlPlane::start)
          .hasMessageContaining(
              "The container backend was asked for bridge networking (kubeharness.network=bridge,"
                  + " or BackendOptions.container().withNetwork(BRIDGE)), but the Docker engine at"
                  + " unix:///var/run/docker.sock has no network 'bridge' (its dockerd runs with"
                  + " --bridge=none)")
          .hasMessageContaining(
              "Use host networking (-Dkubeharness.network=host, or" + " KUBE_HARNESS_NETWORK=host")
          .hasMessageContaining("start dockerd without --bridge=none");
    }
  }

  static boolean engineHasDefaultBridge() throws Exception {
    Process inspect =
        new ProcessBuilder("docker", "network", "inspect", "bridge")
            .redirectErrorStream(true)
            .start();
    inspect.getInputStream().readAllBytes();
    assertThat(inspect.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return inspect.exitValue() == 0;
  }
}
