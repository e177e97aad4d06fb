package io.github.kubeharness.internal.backend;

import org.testcontainers.DockerClientFactory;

/** Whether Testcontainers can reach a Docker engine (loaded only when Testcontainers is there). */
final class DockerCheck {

  private DockerCheck() {}

  /**
   * Null when Docker answers; otherwise the reason and its fix: the socket's own answer where it
   * has one (absent, permission denied, nobody accepting), else Testcontainers'.
   */
  static String problem() {
    java.util.Optional<String> socket = DockerSocket.problem();
    if (socket.isPresent()) {
      return socket.get();
    }
    try {
      return DockerClientFactory.instance().isDockerAvailable()
          ? null
          : "Testcontainers found no Docker engine at "
              + DockerSocket.address()
              + " (its log says why); check that `docker info` answers";
    } catch (RuntimeException | LinkageError e) {
      if (String.valueOf(e.getMessage()).contains(MISSING_BRIDGE)) {
        return missingBridge();
      }
      return "Docker check failed: " + e.getMessage();
    }
  }

  // Docker's 404 for a network named "bridge" that the engine does not have.
  static final String MISSING_BRIDGE = "network bridge not found";

  /**
   * Testcontainers, finding {@code /.dockerenv}, takes this JVM to run inside a container and looks
   * for the Docker host's address on the engine's default bridge network; an engine started with
   * {@code dockerd --bridge=none} has none, and Docker answers 404. Only an environment variable of
   * Testcontainers' own skips that look-up; kube-harness itself needs no such address (it publishes
   * on 127.0.0.1 and runs its own networks, bridge mode included).
   */
  static String missingBridge() {
    return "the Docker engine at "
        + DockerSocket.address()
        + " has no default bridge network ('bridge': Docker answered 404 "
        + MISSING_BRIDGE
        + "), which Testcontainers looks up because /.dockerenv makes it think this JVM runs"
        + " inside a container. Set TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 (the engine is on this"
        + " machine), or give the engine its default bridge (start dockerd without"
        + " --bridge=none); kube-harness's own bridge networking needs no default bridge";
  }
}
