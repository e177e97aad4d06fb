package io.github.kubeharness.internal.backend;

import org.testcontainers.DockerClientFactory;

/** Whether Testcontainers can reach a Docker engine (loaded only when Testcontainers is there). */
final class DockerCheck {

  private DockerCheck() {}

  /** Null when Docker answers; otherwise the reason. */
  static String problem() {
    try {
      return DockerClientFactory.instance().isDockerAvailable()
          ? null
          : "Testcontainers found no Docker engine";
    } catch (RuntimeException | LinkageError e) {
      return "Docker check failed: " + e.getMessage();
    }
  }
}
