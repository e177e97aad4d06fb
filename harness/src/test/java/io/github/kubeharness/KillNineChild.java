package io.github.kubeharness;

import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.settings.HarnessSettings;
import java.util.stream.Collectors;

/**
 * Main class for {@link KillNineIT} and the soak suite: starts a control plane, prints its pids,
 * run directory and URLs, then waits to be killed.
 */
public final class KillNineChild {

  public static void main(String[] args) throws Exception {
    ControlPlane controlPlane =
        ControlPlanes.local(
            ControlPlaneOptions.builder()
                .withBackend(Backend.LOCAL)
                .withProfile(HarnessSettings.PROFILE.parse(args[0], "args"))
                .build());
    controlPlane.start();
    System.out.println(
        "READY pids="
            + ComponentProcesses.of(controlPlane).values().stream()
                .map(String::valueOf)
                .collect(Collectors.joining(","))
            + " run="
            + controlPlane.logDirectory().orElseThrow()
            + " url="
            + controlPlane.apiServerUrl()
            + " proxy="
            + controlPlane.faults().proxyUrl());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
