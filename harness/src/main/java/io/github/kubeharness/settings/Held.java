package io.github.kubeharness.settings;

import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.NetworkMode;
import java.util.Optional;

/**
 * Where resolved options hold a backend's settings: in the backend's own record, or in those {@code
 * auto} would run its choice with. {@code kube-harness env} prints them from here.
 */
final class Held {

  private Held() {}

  static Optional<BackendOptions.Local> local(ControlPlaneOptions options) {
    BackendOptions backend = options.backendOptions();
    if (backend instanceof BackendOptions.Local local) {
      return Optional.of(local);
    }
    return backend instanceof BackendOptions.Auto auto
        ? Optional.of(auto.local())
        : Optional.empty();
  }

  static Optional<BackendOptions.Container> container(ControlPlaneOptions options) {
    BackendOptions backend = options.backendOptions();
    if (backend instanceof BackendOptions.Container container) {
      return Optional.of(container);
    }
    return backend instanceof BackendOptions.Auto auto
        ? Optional.of(auto.container())
        : Optional.empty();
  }

  static Optional<NetworkMode> network(ControlPlaneOptions options) {
    if (options.backendOptions() instanceof BackendOptions.K3s k3s) {
      return Optional.of(k3s.network());
    }
    return container(options).map(BackendOptions.Container::network);
  }

  static Optional<String> k3sImage(ControlPlaneOptions options) {
    return options.backendOptions() instanceof BackendOptions.K3s k3s
        ? k3s.image()
        : Optional.empty();
  }

  static Optional<String> kindImage(ControlPlaneOptions options) {
    return options.backendOptions() instanceof BackendOptions.Kind kind
        ? kind.image()
        : Optional.empty();
  }
}
