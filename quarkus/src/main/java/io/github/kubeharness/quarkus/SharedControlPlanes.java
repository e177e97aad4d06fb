package io.github.kubeharness.quarkus;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import java.util.HashMap;
import java.util.Map;

/**
 * The control planes of this class loader, one per backend, profile and version, running until the
 * JVM exits: an application Quarkus restarts in the same class loader keeps the client address it
 * was first given, so its control plane must outlive the test resource's stop(). Quarkus loads a
 * restart from the workspace in a new class loader, which starts another (docs/quarkus.md, limits).
 * Their processes and containers die with the JVM even on {@code kill -9}.
 */
final class SharedControlPlanes {

  private record Key(Backend backend, Profile profile, String version) {}

  private static final Map<Key, ControlPlane> RUNNING = new HashMap<>();

  private SharedControlPlanes() {}

  /** The running control plane for {@code options}, started on first use. */
  static synchronized ControlPlane get(ControlPlaneOptions options) {
    Key key = new Key(options.backend(), options.profile(), options.kubernetesVersion());
    ControlPlane running = RUNNING.get(key);
    if (running == null) {
      running = ControlPlane.create(options);
      running.start();
      if (RUNNING.isEmpty()) {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(SharedControlPlanes::stopAll, "kube-harness-quarkus-stop"));
      }
      RUNNING.put(key, running);
    }
    return running;
  }

  private static synchronized void stopAll() {
    RUNNING.values().forEach(ControlPlane::stop);
    RUNNING.clear();
  }
}
