package io.github.kubeharness.settings;

import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneDefaults;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the settings into {@link ControlPlaneOptions}: what the code (the builder, an annotation)
 * did not say is taken from the setting's system property, else its environment variable, else its
 * documented default. Called where a control plane is made ({@code ControlPlanes.create}, the JUnit
 * extension, Spring's and Quarkus' integrations, the CLI), so that user code builds options with
 * {@link ControlPlaneOptions#builder()} alone and the settings still apply.
 *
 * <p>The one place a backend's settings are read into its record ({@code
 * FromSettings.backendOptions}).
 */
public final class SettingsResolver {

  private SettingsResolver() {}

  /** {@code options}, what they were not told taken from the settings. */
  public static ControlPlaneOptions resolve(ControlPlaneOptions options) {
    return options.resolve(new FromSettings(SettingSource.ENVIRONMENT, false));
  }

  /**
   * {@code options}, what they were not told taken from {@code given} (values as written by an
   * entry point, a CLI option each: setting → (value, where it was written)), then from the
   * settings. A value that cannot be read fails, naming where it was written.
   */
  public static ControlPlaneOptions resolve(
      ControlPlaneOptions options, Map<Setting<?>, Map.Entry<String, String>> given) {
    Map<Setting<?>, SettingSource.Given> values = new LinkedHashMap<>();
    given.forEach(
        (setting, value) ->
            values.put(setting, new SettingSource.Given(value.getKey(), value.getValue())));
    return options.resolve(new FromSettings(new SettingSource(values), false));
  }

  /**
   * {@code options} resolved for the {@code local} backend whatever they name ({@code
   * ControlPlane.local}): the local record they hold (auto's is what a local choice runs with),
   * else the local backend's settings.
   */
  public static ControlPlaneOptions local(ControlPlaneOptions options) {
    FromSettings settings = new FromSettings(SettingSource.ENVIRONMENT, true);
    ControlPlaneOptions resolved = options.resolve(settings);
    BackendOptions held = resolved.backendOptions();
    BackendOptions local =
        held instanceof BackendOptions.Local
            ? held
            : held instanceof BackendOptions.Auto auto
                ? auto.local()
                : settings.backendOptions(Backend.LOCAL);
    return held == local ? resolved : resolved.toBuilder().withBackend(local).build();
  }

  // The settings, as the options ask for what the code did not say; localOnly: the local backend
  // whatever they name (ControlPlane.local).
  private record FromSettings(SettingSource source, boolean localOnly)
      implements ControlPlaneDefaults {

    @Override
    public Optional<Backend> backend() {
      return localOnly ? Optional.of(Backend.LOCAL) : source.read(HarnessSettings.BACKEND);
    }

    @Override
    public Optional<String> backendSetAt() {
      return localOnly ? Optional.empty() : source.setOutside(HarnessSettings.BACKEND);
    }

    @Override
    public BackendOptions backendOptions(Backend backend) {
      return switch (backend) {
        case AUTO ->
            new BackendOptions.Auto(
                local(),
                container(),
                source.read(HarnessSettings.USE_EXISTING_CLUSTER).orElse(false));
        case LOCAL -> local();
        case CONTAINER -> container();
        case K3S ->
            new BackendOptions.K3s(
                source.resolve(HarnessSettings.NETWORK), source.read(HarnessSettings.K3S_IMAGE));
        case KIND -> new BackendOptions.Kind(source.read(HarnessSettings.KIND_IMAGE));
        case EXISTING -> BackendOptions.existing();
      };
    }

    @Override
    public BackendOptions complete(BackendOptions given) {
      if (given instanceof BackendOptions.Container c) {
        return complete(c);
      }
      if (given instanceof BackendOptions.K3s k3s) {
        return new BackendOptions.K3s(
            k3s.network(), k3s.image().or(() -> source.read(HarnessSettings.K3S_IMAGE)));
      }
      if (given instanceof BackendOptions.Kind kind) {
        return new BackendOptions.Kind(
            kind.image().or(() -> source.read(HarnessSettings.KIND_IMAGE)));
      }
      if (given instanceof BackendOptions.Auto auto) {
        return new BackendOptions.Auto(
            auto.local(), complete(auto.container()), auto.existingCluster());
      }
      return given;
    }

    private BackendOptions.Container complete(BackendOptions.Container c) {
      return new BackendOptions.Container(
          c.network(),
          c.etcdImage().or(() -> source.read(HarnessSettings.CONTAINER_ETCD_IMAGE)),
          c.apiServerImage().or(() -> source.read(HarnessSettings.CONTAINER_APISERVER_IMAGE)),
          c.controllerManagerImage()
              .or(() -> source.read(HarnessSettings.CONTAINER_CONTROLLER_MANAGER_IMAGE)));
    }

    private BackendOptions.Local local() {
      return new BackendOptions.Local(
          source.resolve(HarnessSettings.SIMULATED_NODES),
          source.resolve(HarnessSettings.SIMULATED_POD_START),
          source.resolve(HarnessSettings.REUSE_IDLE_MINUTES),
          source.resolve(HarnessSettings.SIMULATED_STORAGE_CLASS));
    }

    private BackendOptions.Container container() {
      return new BackendOptions.Container(
          source.resolve(HarnessSettings.NETWORK),
          source.read(HarnessSettings.CONTAINER_ETCD_IMAGE),
          source.read(HarnessSettings.CONTAINER_APISERVER_IMAGE),
          source.read(HarnessSettings.CONTAINER_CONTROLLER_MANAGER_IMAGE));
    }

    @Override
    public Optional<Profile> profile() {
      return source.read(HarnessSettings.PROFILE);
    }

    @Override
    public Optional<String> kubernetesVersion() {
      return source.read(HarnessSettings.KUBERNETES_VERSION);
    }

    @Override
    public Optional<Duration> startTimeout() {
      return source.read(HarnessSettings.START_TIMEOUT);
    }

    @Override
    public Optional<Boolean> offline() {
      return source.read(HarnessSettings.OFFLINE);
    }

    @Override
    public Optional<Path> cacheDirectory() {
      return Optional.of(source.resolve(HarnessSettings.CACHE_DIR));
    }

    @Override
    public Optional<URI> releaseIndex() {
      return source.read(HarnessSettings.RELEASE_INDEX_URL);
    }

    @Override
    public Optional<Path> assetsDirectory() {
      return source.read(HarnessSettings.KUBEBUILDER_ASSETS);
    }

    @Override
    public Optional<String> goCommand() {
      return source.read(HarnessSettings.GO);
    }

    @Override
    public Map<String, Path> binaries() {
      return HarnessSettings.testAssets();
    }

    @Override
    public Optional<Boolean> reuse(Backend backend) {
      Optional<Boolean> reuse = source.read(HarnessSettings.REUSE);
      return reuse.isPresent() || backend != Backend.KIND
          ? reuse
          : Optional.of(DeprecatedKindReuse.asked());
    }
  }
}
