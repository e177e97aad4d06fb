package io.github.kubeharness.internal.backend;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.util.Arrays;
import org.testcontainers.containers.GenericContainer;

/**
 * Publishes a container's exposed ports on the Docker host's 127.0.0.1 only.
 *
 * <p>Testcontainers publishes with no host address, so Docker binds every interface (0.0.0.0 and
 * ::), and its port rules pass host firewalls by: an etcd or API server of a test would be open to
 * the whole network. Here every exposed port gets a binding to 127.0.0.1 on a random port, which
 * Testcontainers' {@code getMappedPort} reads back as before. The price: a Docker daemon on another
 * machine ({@code DOCKER_HOST=tcp://…}) publishes on its own loopback, out of reach; kube-harness
 * supports a local Docker only.
 */
final class LoopbackPorts {

  static final String LOOPBACK = "127.0.0.1";

  private LoopbackPorts() {}

  /** Makes {@code container} publish each port it exposes on 127.0.0.1 only. */
  static <T extends GenericContainer<?>> T publishOnLoopback(T container) {
    container.withCreateContainerCmdModifier(LoopbackPorts::bindExposedPortsToLoopback);
    return container;
  }

  /** Rewrites the command's port bindings: each exposed port on 127.0.0.1, a random host port. */
  static void bindExposedPortsToLoopback(CreateContainerCmd cmd) {
    ExposedPort[] exposed = cmd.getExposedPorts();
    if (exposed == null || exposed.length == 0 || cmd.getHostConfig() == null) {
      return;
    }
    PortBinding[] bindings =
        Arrays.stream(exposed)
            .map(port -> new PortBinding(Ports.Binding.bindIp(LOOPBACK), port))
            .toArray(PortBinding[]::new);
    // Publish-all would add a binding on every interface beside ours.
    cmd.getHostConfig().withPortBindings(bindings).withPublishAllPorts(false);
  }

  /**
   * {@code 127.0.0.1:<host port>} of a published container port: the address it was bound to, not
   * Testcontainers' host name ({@code localhost} may resolve to ::1, where nothing listens).
   */
  static String address(GenericContainer<?> container, int containerPort) {
    return LOOPBACK + ":" + container.getMappedPort(containerPort);
  }
}
