package io.github.kubeharness.settings;

import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.NetworkMode;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where resolved options hold a backend's settings: in the backend's own record, or in those {@code
 * auto} would run its choice with. {@code kube-harness env} prints them from here.
 */
final class Held {

  private Held() {}

  static Optional<BackendOptions.Local> local(ControlPlaneOptions options) {
    return own(options, BackendOptions.Local.class, BackendOptions.Auto::local);
  }

  static Optional<BackendOptions.Container> container(ControlPlaneOptions options) {
    return own(options, BackendOptions.Container.class, BackendOptions.Auto::container);
  }

  // The backend's own record of that type, or the one auto would run with if it chose it.
  private static <T extends BackendOptions> Optional<T> own(
      ControlPlaneOptions options, Class<T> type, Function<BackendOptions.Auto, T> inAuto) {
    BackendOptions backend = options.backendOptions();
    if (type.isInstance(backend)) {
      return Optional.of(type.cast(backend));
    }
    return backend instanceof BackendOptions.Auto auto
        ? Optional.of(inAuto.apply(auto))
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
