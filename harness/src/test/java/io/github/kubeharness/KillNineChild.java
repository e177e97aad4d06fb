package io.github.kubeharness;

import java.util.stream.Collectors;

/**
 * Main class for {@link KillNineIT}: starts a control plane, prints its pids and run directory,
 * then waits to be killed.
 */
public final class KillNineChild {

  public static void main(String[] args) throws Exception {
    ControlPlane controlPlane =
        ControlPlane.local(
            ControlPlaneOptions.builder().withProfile(Profile.parse(args[0], "args")).build());
    controlPlane.start();
    System.out.println(
        "READY pids="
            + ComponentProcesses.of(controlPlane).values().stream()
                .map(String::valueOf)
                .collect(Collectors.joining(","))
            + " run="
            + controlPlane.logDirectory().orElseThrow());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
