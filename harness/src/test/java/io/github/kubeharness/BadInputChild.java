package io.github.kubeharness;

import io.github.kubeharness.launch.ControlPlanes;

/**
 * Main class for the bad-input table's rows that need an environment of their own: starts a control
 * plane of the backend named by {@code args[0]} and prints {@code FAILED <message>} when the start
 * fails (it must), else {@code STARTED}.
 */
public final class BadInputChild {

  public static void main(String[] args) {
    try (ControlPlane controlPlane =
        ControlPlanes.create(
            ControlPlaneOptions.builder().withBackend(Backend.valueOf(args[0])).build())) {
      controlPlane.start();
      System.out.println("STARTED");
    } catch (RuntimeException e) {
      System.out.println("FAILED " + e.getMessage().replace('\n', ' '));
    }
  }
}
