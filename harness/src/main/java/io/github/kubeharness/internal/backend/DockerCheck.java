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
      return "Docker check failed: " + e.getMessage();
    }
  }
}
