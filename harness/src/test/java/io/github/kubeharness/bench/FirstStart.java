package io.github.kubeharness.bench;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;

/**
 * Child JVM of {@link HarnessBenchmark}: one {@code start()} in a JVM that has loaded nothing yet,
 * as the first test class of a run sees it. Prints {@code STARTED <ms>}.
 */
public final class FirstStart {

  public static void main(String[] args) {
    ControlPlane controlPlane =
        ControlPlane.local(
            ControlPlaneOptions.builder().withProfile(Profile.parse(args[0], "args")).build());
    long t0 = System.nanoTime();
    controlPlane.start();
    System.out.println("STARTED " + (System.nanoTime() - t0) / 1_000_000);
    controlPlane.stop();
  }
}
