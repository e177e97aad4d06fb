package io.github.kubeharness.launch;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.backend.Backends;
import io.github.kubeharness.settings.SettingsResolver;

/**
 * Makes control planes from plain Java (a {@code @ControllerTest} class gets one from its
 * annotation instead).
 *
 * <pre>{@code
 * try (ControlPlane cp = ControlPlanes.create(ControlPlaneOptions.defaults())) {
 *   cp.start();
 *   cp.installCrds(List.of("config/crd/bases"), List.of());
 *   try (KubernetesClient client = cp.newClient()) { ... }
 * }
 * }</pre>
 */
public final class ControlPlanes {

  private ControlPlanes() {}

  /**
   * A control plane of the backend {@code options} name ({@link Backend#AUTO} decides here, and
   * logs its choice and why once), what {@code options} were not told taken from the settings
   * (system property, then environment variable, then the default). Not started yet.
   */
  public static ControlPlane create(ControlPlaneOptions options) {
    return Backends.newControlPlane(SettingsResolver.resolve(options));
  }

  /** A control plane of local etcd and kube-apiserver processes (not started yet). */
  public static ControlPlane local(ControlPlaneOptions options) {
    return Backends.newControlPlane(SettingsResolver.local(options));
  }
}
