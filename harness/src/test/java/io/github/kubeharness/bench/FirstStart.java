package io.github.kubeharness.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.settings.HarnessSettings;

/**
 * Child JVM of {@link HarnessBenchmark}: one {@code start()} in a JVM that has loaded nothing yet,
 * as the first test class of a run sees it ({@code reuse}: attaching to a kept control plane).
 * Prints {@code STARTED <ms from start()> <ms from JVM start> <ms from start() to a fabric8
 * client's first answer>}.
 */
public final class FirstStart {

  public static void main(String[] args) {
    ControlPlane controlPlane =
        ControlPlanes.local(
            ControlPlaneOptions.builder()
                .withProfile(HarnessSettings.PROFILE.parse(args[0], "args"))
                .withAuditLog(true)
                .withReuse(args.length > 1 && args[1].equals("reuse"))
                .build());
    long t0 = System.nanoTime();
    controlPlane.start();
    long started = System.nanoTime();
    long jvmStarted = ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
    long fromJvm = System.currentTimeMillis() - jvmStarted;
    // And what a test does first: a fabric8 client's first answer (class loading included).
    try (KubernetesClient client = controlPlane.newClient()) {
      client.namespaces().withName("default").get();
    }
    // Millis from start(), from the JVM's own start, and from start() to the first answer.
    System.out.println(
        "STARTED "
            + (started - t0) / 1_000_000
            + " "
            + fromJvm
            + " "
            + (System.nanoTime() - t0) / 1_000_000);
    controlPlane.stop();
  }
}
