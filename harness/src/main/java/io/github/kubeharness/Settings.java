package io.github.kubeharness;

import java.util.Locale;
import java.util.Optional;

/**
 * The harness's settings, each readable as a system property or an environment variable.
 *
 * <p>Precedence, highest first: an annotation attribute or an explicit option in code, then the
 * system property (for example {@code -Dkubeharness.profile=standard}), then the environment
 * variable ({@code KUBE_HARNESS_PROFILE=standard}), then the documented default. The environment
 * variable name is the property name without {@code kubeharness.}, upper-cased, dots turned into
 * underscores and prefixed with {@code KUBE_HARNESS_}.
 */
public final class Settings {

  /** Backend: {@code auto|local|container|k3s|existing}. Default {@code auto}. */
  public static final String BACKEND = "kubeharness.backend";

  /** Profile: {@code minimal|standard}. Default {@code minimal}. */
  public static final String PROFILE = "kubeharness.profile";

  /**
   * Kubernetes version of the control plane, e.g. {@code 1.37.2}. Default {@link
   * Versions#KUBERNETES}.
   */
  public static final String KUBERNETES_VERSION = "kubeharness.kubernetes.version";

  /** Container network mode: {@code bridge|host}. Default {@code bridge}. */
  public static final String NETWORK = "kubeharness.network";

  /** {@code true}: never download anything. Default {@code false}. */
  public static final String OFFLINE = "kubeharness.offline";

  /**
   * Root of the binary cache. Default {@code $XDG_CACHE_HOME/kube-harness} or {@code
   * ~/.cache/kube-harness}.
   */
  public static final String CACHE_DIR = "kubeharness.cache.dir";

  /** URL of the envtest release index (YAML), for mirrors. Default: controller-tools' index. */
  public static final String RELEASE_INDEX_URL = "kubeharness.release.index.url";

  /** Seconds to wait for a control plane to become ready. Default 60. */
  public static final String START_TIMEOUT_SECONDS = "kubeharness.start.timeout.seconds";

  private Settings() {}

  /** The environment variable that mirrors a {@code kubeharness.*} property. */
  public static String environmentVariable(String property) {
    String rest = property.startsWith("kubeharness.") ? property.substring(12) : property;
    return "KUBE_HARNESS_" + rest.replace('.', '_').toUpperCase(Locale.ROOT);
  }

  /** The value of a setting: system property first, then environment variable; blank is unset. */
  public static Optional<String> get(String property) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      value = System.getenv(environmentVariable(property));
    }
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  /** Describes where a setting is read from, for error messages. */
  public static String describe(String property) {
    return "system property "
        + property
        + " / environment variable "
        + environmentVariable(property);
  }
}
