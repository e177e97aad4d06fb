package io.github.kubeharness.integration;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import java.util.HashMap;
import java.util.Map;

/**
 * The control planes of this class loader, one per backend, profile and version, started on first
 * use and stopped when the JVM exits: a framework keeps several application contexts (Spring's
 * context cache) or restarts its application (Quarkus), and a control plane for each would cost
 * seconds apiece. Their processes and containers die with the JVM even on {@code kill -9}
 * (kube-harness's watchdog).
 */
public final class SharedControlPlanes {

  private record Key(Backend backend, Profile profile, String version) {}

  private static final Map<Key, ControlPlane> RUNNING = new HashMap<>();

  private SharedControlPlanes() {}

  /** The running control plane for {@code options}' backend, profile and version. */
  public static synchronized ControlPlane get(ControlPlaneOptions options) {
    Key key = new Key(options.backend(), options.profile(), options.kubernetesVersion());
    ControlPlane running = RUNNING.get(key);
    if (running == null) {
      running = ControlPlane.create(options);
      running.start();
      if (RUNNING.isEmpty()) {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(SharedControlPlanes::stopAll, "kube-harness-shared-stop"));
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
