package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.launch.ControlPlanes;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A port handed out as free can be taken by another process before the component binds it; the
 * start notices ("address already in use") and starts again on new ports.
 */
class PortClashIT {

  @Test
  void aPortTakenMeanwhileIsRetriedOnNewPorts() throws Exception {
    // Once without a clash, so that the etcd seed exists and the forced port goes to etcd itself
    // rather than to the private etcd that makes a seed.
    try (ControlPlane warmUp =
        ControlPlanes.local(ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).build())) {
      warmUp.start();
    }
    List<String> progress = new CopyOnWriteArrayList<>();
    try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ControlPlane controlPlane =
            ControlPlanes.local(
                ControlPlaneOptions.builder()
                    .withProfile(Profile.MINIMAL)
                    .withProgress(progress::add)
                    .build())) {
      FreePorts.handOutNext(squatter.getLocalPort()); // etcd's client port: already bound

      controlPlane.start();

      assertThat(progress)
          .contains("a port was taken by another process meanwhile; starting again on new ports");
      try (KubernetesClient client = controlPlane.newClient()) {
        assertThat(client.namespaces().withName("default").get()).isNotNull();
      }
    }
  }
}
