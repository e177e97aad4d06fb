package io.github.kubeharness.internal.backend;

/**
 * The doorway to the Testcontainers backends. Testcontainers is an optional dependency: its classes
 * are touched only after these checks ({@link Backends} makes a container or k3s control plane only
 * behind them), so the local backend works without it.
 */
final class TestcontainersSupport {

  private TestcontainersSupport() {}

  /** Refuses {@code what} (a backend) when Testcontainers is not on the classpath. */
  static void require(String what) {
    if (!present()) {
      throw BackendUnavailable.error(
          what,
          "org.testcontainers:testcontainers is not on the test classpath; add it (version 2.0.5)",
          null);
    }
  }

  /** Refuses the k3s backend when Testcontainers or its k3s module is not on the classpath. */
  static void requireK3s() {
    require("The k3s backend");
    try {
      Class.forName("org.testcontainers.k3s.K3sContainer");
    } catch (ClassNotFoundException e) {
      throw BackendUnavailable.error(
          "The k3s backend",
          "org.testcontainers:testcontainers-k3s is not on the test classpath; add it",
          e);
    }
  }

  /** Null when Docker answers; otherwise why not. */
  static String dockerStatus() {
    if (!present()) {
      return "Testcontainers is not on the classpath";
    }
    return DockerCheck.problem();
  }

  private static boolean present() {
    try {
      Class.forName("org.testcontainers.DockerClientFactory");
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
