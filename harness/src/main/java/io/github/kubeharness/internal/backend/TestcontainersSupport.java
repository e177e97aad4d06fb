package io.github.kubeharness.internal.backend;

import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;

/**
 * The doorway to the Testcontainers backends. Testcontainers is an optional dependency: its classes
 * are touched only behind this check, so the local backend works without it.
 */
final class TestcontainersSupport {

  private TestcontainersSupport() {}

  static HarnessControlPlane container(
      ControlPlaneOptions options, BackendOptions.Container container) {
    requireTestcontainers("The container backend");
    return new ContainerControlPlane(options, container);
  }

  static HarnessControlPlane k3s(ControlPlaneOptions options, BackendOptions.K3s k3s) {
    requireTestcontainers("The k3s backend");
    try {
      Class.forName("org.testcontainers.k3s.K3sContainer");
    } catch (ClassNotFoundException e) {
      throw Backends.unavailable(
          "The k3s backend",
          "org.testcontainers:testcontainers-k3s is not on the test classpath; add it",
          e);
    }
    return new K3sControlPlane(options, k3s);
  }

  /** Null when Docker answers; otherwise why not. */
  static String dockerStatus() {
    if (!present()) {
      return "Testcontainers is not on the classpath";
    }
    return DockerCheck.problem();
  }

  private static void requireTestcontainers(String what) {
    if (!present()) {
      throw Backends.unavailable(
          what,
          "org.testcontainers:testcontainers is not on the test classpath; add it (version 2.0.5)",
          null);
    }
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
