package io.github.kubeharness.spring;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import java.util.HashMap;
import java.util.Map;

/**
 * The JVM's control planes, one per backend, profile and version: Spring keeps several contexts
 * (one per configuration) in its cache, and starting a control plane for each would cost seconds
 * apiece. They stop when the JVM exits; their processes and containers die with it even on {@code
 * kill -9} (kube-harness's own watchdog).
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
            .addShutdownHook(new Thread(SharedControlPlanes::stopAll, "kube-harness-spring-stop"));
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
