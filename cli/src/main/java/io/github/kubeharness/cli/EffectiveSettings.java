package io.github.kubeharness.cli;

import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.Settings;
import io.github.kubeharness.assertions.KubeAssertions;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * What {@code kube-harness env} prints for a setting: the value the resolved options hold, from the
 * shared options or from the backend's own record ({@code auto}'s: those of the backends it may
 * choose).
 */
final class EffectiveSettings {

  private EffectiveSettings() {}

  /** The resolved value of a setting the options hold, or null for one they hold no value of. */
  static String value(String property, ControlPlaneOptions options) {
    BackendOptions backend = options.backendOptions();
    Optional<BackendOptions.Local> local = local(backend);
    Optional<BackendOptions.Container> container = container(backend);
    return switch (property) {
      case Settings.BACKEND -> options.backend().settingValue();
      case Settings.PROFILE -> options.profile().settingValue();
      case Settings.KUBERNETES_VERSION -> options.kubernetesVersion();
      case Settings.NETWORK -> network(backend).map(EffectiveSettings::name).orElse(null);
      case Settings.OFFLINE -> Boolean.toString(options.offline());
      case Settings.CACHE_DIR -> options.cacheDirectory().toString();
      case Settings.RELEASE_INDEX_URL -> options.releaseIndex().toString();
      case Settings.START_TIMEOUT_SECONDS -> seconds(options.startTimeout());
      case Settings.EVENTUALLY_TIMEOUT_SECONDS -> seconds(KubeAssertions.defaultTimeout());
      case Settings.GO -> options.goCommand();
      case Settings.REUSE -> Boolean.toString(options.reuse());
      case Settings.REUSE_IDLE_MINUTES ->
          local.map(l -> Long.toString(l.reuseIdleTimeout().toMinutes())).orElse(null);
      case Settings.SIMULATED_NODES ->
          local.map(l -> Integer.toString(l.simulatedNodes())).orElse(null);
      case Settings.SIMULATED_POD_START_SECONDS ->
          local.map(l -> seconds(l.podStartDelay())).orElse(null);
      case Settings.SIMULATED_STORAGE_CLASS ->
          local.map(l -> l.defaultStorageClass().orElse("none")).orElse(null);
      case Settings.K3S_IMAGE ->
          backend instanceof BackendOptions.K3s k3s ? k3s.image().orElse(null) : null;
      case Settings.KIND_IMAGE ->
          backend instanceof BackendOptions.Kind kind ? kind.image().orElse(null) : null;
      case Settings.CONTAINER_ETCD_IMAGE ->
          container.flatMap(BackendOptions.Container::etcdImage).orElse(null);
      case Settings.CONTAINER_APISERVER_IMAGE ->
          container.flatMap(BackendOptions.Container::apiServerImage).orElse(null);
      case Settings.CONTAINER_CONTROLLER_MANAGER_IMAGE ->
          container.flatMap(BackendOptions.Container::controllerManagerImage).orElse(null);
      default -> null;
    };
  }

  /** The local backend's options: its own, or those auto would run a local choice with. */
  static Optional<BackendOptions.Local> local(BackendOptions backend) {
    if (backend instanceof BackendOptions.Local local) {
      return Optional.of(local);
    }
    return backend instanceof BackendOptions.Auto auto
        ? Optional.of(auto.local())
        : Optional.empty();
  }

  private static Optional<BackendOptions.Container> container(BackendOptions backend) {
    if (backend instanceof BackendOptions.Container container) {
      return Optional.of(container);
    }
    return backend instanceof BackendOptions.Auto auto
        ? Optional.of(auto.container())
        : Optional.empty();
  }

  private static Optional<NetworkMode> network(BackendOptions backend) {
    if (backend instanceof BackendOptions.K3s k3s) {
      return Optional.of(k3s.network());
    }
    return container(backend).map(BackendOptions.Container::network);
  }

  private static String name(NetworkMode mode) {
    return mode.name().toLowerCase(Locale.ROOT);
  }

  private static String seconds(Duration duration) {
    return BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString();
  }
}
