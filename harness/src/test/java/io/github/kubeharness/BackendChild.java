package io.github.kubeharness;

import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.settings.HarnessSettings;

/**
 * Main class for tests that need a control plane in another JVM: starts one of the given backend
 * and profile, prints {@code READY <url>} (or {@code FAILED <message>}), then waits to be killed.
 */
public final class BackendChild {

  public static void main(String[] args) throws Exception {
    try {
      ControlPlane controlPlane =
          ControlPlanes.create(
              ControlPlaneOptions.builder()
                  .withBackend(HarnessSettings.BACKEND.parse(args[0], "args"))
                  .withProfile(HarnessSettings.PROFILE.parse(args[1], "args"))
                  .build());
      controlPlane.start();
      System.out.println("READY " + controlPlane.apiServerUrl());
    } catch (RuntimeException e) {
      System.out.println("FAILED " + e.getMessage().replace('\n', ' '));
      System.exit(1);
    }
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
