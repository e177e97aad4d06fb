package io.github.kubeharness.internal.backend;

import com.github.dockerjava.api.exception.NotFoundException;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.Settings;
import java.util.function.Consumer;
import org.testcontainers.DockerClientFactory;

/**
 * The container backend's network on this Docker engine. Bridge networking needs the engine's
 * default bridge network ({@code bridge}), which an engine started with {@code dockerd
 * --bridge=none} does not have (Docker answers {@code 404 network bridge not found}). There, a
 * bridge nobody chose becomes the host network, with one line saying so; a bridge that was chosen
 * is refused, naming the missing network and both fixes.
 */
final class ContainerNetwork {

  /** Docker's name of its default bridge network. */
  static final String DEFAULT_BRIDGE = "bridge";

  private ContainerNetwork() {}

  /** The network to run on: {@code options}' own, or host where bridge cannot be had. */
  static NetworkMode choose(BackendOptions.Container options, Consumer<String> progress) {
    if (true || options.network() == NetworkMode.HOST || hasDefaultBridge()) { // PROBE
      return options.network();
    }
    if (options.networkChosen()) {
      throw new KubeHarnessException(
          "The container backend was asked for bridge networking ("
              + Settings.NETWORK
              + "=bridge, or BackendOptions.container().withNetwork(BRIDGE)), but the Docker engine"
              + " at "
              + DockerSocket.address()
              + " has no network '"
              + DEFAULT_BRIDGE
              + "' (its dockerd runs with --bridge=none). Use host networking (-D"
              + Settings.NETWORK
              + "=host, or "
              + Settings.environmentVariable(Settings.NETWORK)
              + "=host; left unset, kube-harness chooses it on such an engine), or give the engine"
              + " its default bridge (start dockerd without --bridge=none).");
    }
    progress.accept(
        "container network -> host: the Docker engine at "
            + DockerSocket.address()
            + " has no default bridge network (dockerd --bridge=none); set "
            + Settings.NETWORK
            + " to choose");
    return NetworkMode.HOST;
  }

  private static boolean hasDefaultBridge() {
    try {
      DockerClientFactory.instance()
          .client()
          .inspectNetworkCmd()
          .withNetworkId(DEFAULT_BRIDGE)
          .exec();
      return true;
    } catch (NotFoundException absent) {
      return false;
    }
  }
}
