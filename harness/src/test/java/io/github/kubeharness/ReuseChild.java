package io.github.kubeharness;

import io.github.kubeharness.launch.ControlPlanes;
import java.time.Duration;

/**
 * Main class for {@link ReuseIT}: starts (or attaches to) a kept control plane with {@code
 * kubeharness.reuse}, prints {@code KEPT url=<url> run=<run directory> ms=<start ms>}, then exits
 * normally, or with {@code wait} stays until killed.
 */
public final class ReuseChild {

  public static void main(String[] args) throws Exception {
    ControlPlane controlPlane =
        ControlPlanes.local(
            ControlPlaneOptions.builder()
                .withBackend(
                    BackendOptions.local()
                        .withReuseIdleTimeout(Duration.ofSeconds(Long.parseLong(args[0]))))
                .withAuditLog(true)
                .withReuse(true)
                .build());
    long t0 = System.nanoTime();
    controlPlane.start();
    System.out.println(
        "KEPT url="
            + controlPlane.apiServerUrl()
            + " run="
            + controlPlane.logDirectory().orElseThrow()
            + " ms="
            + (System.nanoTime() - t0) / 1_000_000);
    System.out.flush();
    if (args.length > 1 && args[1].equals("wait")) {
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
