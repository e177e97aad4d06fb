package io.github.kubeharness.bench;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;

/**
 * Child JVM of {@link HarnessBenchmark}: one {@code start()} in a JVM that has loaded nothing yet,
 * as the first test class of a run sees it. Prints {@code STARTED <ms from start()> <ms from JVM
 * start>}.
 */
public final class FirstStart {

  public static void main(String[] args) {
    ControlPlane controlPlane =
        ControlPlane.local(
            ControlPlaneOptions.builder()
                .withProfile(Profile.parse(args[0], "args"))
                .withAuditLog(true)
                .build());
    long t0 = System.nanoTime();
    controlPlane.start();
    long jvmStarted = ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
    // Millis from start(), then from the JVM's own start (class loading of the whole run too).
    System.out.println(
        "STARTED "
            + (System.nanoTime() - t0) / 1_000_000
            + " "
            + (System.currentTimeMillis() - jvmStarted));
    controlPlane.stop();
  }
}
