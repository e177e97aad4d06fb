package io.github.kubeharness;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Where the {@link ControlPlaneOptions} the code did not set come from, each empty for the
 * documented default: kube-harness's settings ({@code
 * io.github.kubeharness.settings.SettingsResolver} implements this), or nothing ({@link #NONE},
 * what {@link ControlPlaneOptions.Builder#build()} uses). Declared here, beside the values, so that
 * the values never depend on the registry above them.
 */
public interface ControlPlaneDefaults {

  /** Nothing set anywhere: every option not told takes its documented default. */
  ControlPlaneDefaults NONE = new ControlPlaneDefaults() {};

  /** The backend, when the builder named none. */
  default Optional<Backend> backend() {
    return Optional.empty();
  }

  /**
   * Where {@link #backend()} was set, as written, for messages that name a forgotten setting:
   * {@code environment variable KUBE_HARNESS_BACKEND=container}.
   */
  default Optional<String> backendSetAt() {
    return Optional.empty();
  }

  /** {@code backend}'s own record, when the builder gave none: {@link BackendOptions#of}. */
  default BackendOptions backendOptions(Backend backend) {
    return BackendOptions.of(backend);
  }

  /** A record the builder was given, completed: its unset (empty) options filled in. */
  default BackendOptions complete(BackendOptions given) {
    return given;
  }

  default Optional<Profile> profile() {
    return Optional.empty();
  }

  default Optional<String> kubernetesVersion() {
    return Optional.empty();
  }

  default Optional<Duration> startTimeout() {
    return Optional.empty();
  }

  default Optional<Boolean> offline() {
    return Optional.empty();
  }

  default Optional<Path> cacheDirectory() {
    return Optional.empty();
  }

  default Optional<URI> releaseIndex() {
    return Optional.empty();
  }

  /** envtest's {@code KUBEBUILDER_ASSETS}. */
  default Optional<Path> assetsDirectory() {
    return Optional.empty();
  }

  default Optional<String> goCommand() {
    return Optional.empty();
  }

  /** Single binaries' files by name: envtest's {@code TEST_ASSET_<NAME>}. */
  default Map<String, Path> binaries() {
    return Map.of();
  }

  /** Whether to keep the control plane of {@code backend}. */
  default Optional<Boolean> reuse(Backend backend) {
    return Optional.empty();
  }
}
