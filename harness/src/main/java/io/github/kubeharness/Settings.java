package io.github.kubeharness;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Every setting of the harness, each readable as a system property or an environment variable: the
 * one registry that the code reads, the CLI's {@code kube-harness env} prints and
 * docs/configuration.md documents.
 *
 * <p>Precedence, highest first: an annotation attribute or an explicit option in code, then the
 * system property (for example {@code -Dkubeharness.profile=standard}), then the environment
 * variable ({@code KUBE_HARNESS_PROFILE=standard}), then the documented default. The environment
 * variable name is the property name without {@code kubeharness.}, upper-cased, dots and dashes
 * turned into underscores and prefixed with {@code KUBE_HARNESS_}. A value that cannot be read
 * fails with the setting's name and the values it takes.
 */
public final class Settings {

  /** Backend: {@code auto|local|container|k3s|existing}. Default {@code auto}. */
  public static final String BACKEND = "kubeharness.backend";

  /** Profile: {@code minimal|standard|simulated}. Default {@code minimal}. */
  public static final String PROFILE = "kubeharness.profile";

  /**
   * Kubernetes version of the control plane, e.g. {@code 1.37.2}. Default {@link
   * Versions#KUBERNETES}.
   */
  public static final String KUBERNETES_VERSION = "kubeharness.kubernetes.version";

  /**
   * The version matrix of {@code @MatrixTest} methods, comma-separated ({@code 1.35,1.36,1.37}; a
   * minor means its newest patch): replaces the classes' {@code kubernetesVersions}, so that CI can
   * widen or narrow the matrix without code changes. Default: each class's own.
   */
  public static final String KUBERNETES_VERSIONS = "kubeharness.kubernetes.versions";

  /** Container network mode: {@code bridge|host}. Default {@code bridge}. */
  public static final String NETWORK = "kubeharness.network";

  /**
   * {@code true}: kube-harness downloads no envtest release archive (nor its index), and the
   * container and kind backends pull no image; what is missing fails, naming how to provide it.
   * Default {@code false}.
   *
   * <p>Not covered, because it is how machines with only a Go module mirror get binaries: a build
   * of missing binaries (and of kind and KWOK) from Go modules, which fetches through the Go
   * command's {@code GOPROXY} and checks new modules against its {@code GOSUMDB}, and the Go
   * proxy's list of releases when a version names only a minor. {@code GOPROXY=off} with {@code
   * GOSUMDB=off} (in the environment or by {@code go env -w}) keeps Go to its module cache. Nor
   * covered: the {@code k3s} backend's Testcontainers module has Docker pull an image that is not
   * there.
   */
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

  /** Default timeout of {@code eventually}, in seconds. Default 30. */
  public static final String EVENTUALLY_TIMEOUT_SECONDS = "kubeharness.eventually.timeout.seconds";

  /** Image of the k3s backend. Default {@code rancher/k3s:v<version>-k3s1}. */
  public static final String K3S_IMAGE = "kubeharness.k3s.image";

  /**
   * Node image of the kind backend. Default {@code kube-harness/kind-node:v<version>} where it
   * exists locally ({@code make kind-image}), else {@code kindest/node:v<version>}.
   */
  public static final String KIND_IMAGE = "kubeharness.kind.image";

  /**
   * {@code true}: the kind backend keeps its cluster when the JVM exits and the next JVM attaches
   * to it (delete it with {@code kind delete cluster --name kube-harness-reuse-...} or {@code make
   * kind-delete}). Default {@code false}.
   */
  public static final String KIND_REUSE = "kubeharness.kind.reuse";

  /**
   * Keep the {@code local} control plane running after the JVM exits, for the next JVM with the
   * same backend, profile, version, binaries and flags to attach to; it stops after {@link
   * #REUSE_IDLE_MINUTES} without a JVM attached, or at once with {@code kube-harness down}. Default
   * {@code false}.
   */
  public static final String REUSE = "kubeharness.reuse";

  /** Minutes a kept control plane waits without an attached JVM before it stops. Default 10. */
  public static final String REUSE_IDLE_MINUTES = "kubeharness.reuse.idle.minutes";

  /** How many fake nodes the {@code simulated} profile starts with. Default 1. */
  public static final String SIMULATED_NODES = "kubeharness.simulated.nodes";

  /**
   * Seconds a pod of the {@code simulated} profile takes from scheduled to Running and Ready (and a
   * Job's pod from Running to Succeeded). Default 0.3.
   */
  public static final String SIMULATED_POD_START_SECONDS =
      "kubeharness.simulated.pod.start.seconds";

  /** etcd image of the container backend. Default {@code registry.k8s.io/etcd:<its version>-0}. */
  public static final String CONTAINER_ETCD_IMAGE = "kubeharness.container.etcd.image";

  /**
   * kube-apiserver image of the container backend. Default {@code registry.k8s.io/...:v<version>}.
   */
  public static final String CONTAINER_APISERVER_IMAGE = "kubeharness.container.apiserver.image";

  /** kube-controller-manager image of the container backend. Default from registry.k8s.io. */
  public static final String CONTAINER_CONTROLLER_MANAGER_IMAGE =
      "kubeharness.container.controller-manager.image";

  /** One setting: its property, what it takes and its default, for {@code kube-harness env}. */
  public record Setting(String property, String takes, String defaultValue) {

    /** The environment variable that mirrors the property. */
    public String environmentVariable() {
      return Settings.environmentVariable(property);
    }

    /** The value set for it, if any (system property first, then environment). */
    public Optional<String> value() {
      return get(property);
    }
  }

  /** Every setting, in the order {@code kube-harness env} prints them. */
  public static final List<Setting> ALL =
      List.of(
          new Setting(BACKEND, "auto|local|container|k3s|existing|kind", "auto"),
          new Setting(PROFILE, "minimal|standard|simulated", "minimal"),
          new Setting(KUBERNETES_VERSION, "MAJOR.MINOR.PATCH", Versions.KUBERNETES),
          new Setting(
              KUBERNETES_VERSIONS,
              "versions, comma-separated (MAJOR.MINOR or MAJOR.MINOR.PATCH)",
              "the class's kubernetesVersions"),
          new Setting(NETWORK, "bridge|host", "bridge"),
          new Setting(OFFLINE, "true|false", "false"),
          new Setting(
              CACHE_DIR, "a directory", "$XDG_CACHE_HOME/kube-harness or ~/.cache/kube-harness"),
          new Setting(RELEASE_INDEX_URL, "a URL", "controller-tools' envtest-releases.yaml"),
          new Setting(START_TIMEOUT_SECONDS, "seconds > 0", "60"),
          new Setting(EVENTUALLY_TIMEOUT_SECONDS, "seconds > 0", "30"),
          new Setting(K3S_IMAGE, "an image", "rancher/k3s:v<version>-k3s1"),
          new Setting(
              KIND_IMAGE,
              "an image",
              "kube-harness/kind-node:v<version> if built, else kindest/node:v<version>"),
          new Setting(KIND_REUSE, "true|false", "false"),
          new Setting(REUSE, "true|false", "false"),
          new Setting(REUSE_IDLE_MINUTES, "a number > 0", "10"),
          new Setting(SIMULATED_NODES, "a number > 0", "1"),
          new Setting(SIMULATED_POD_START_SECONDS, "seconds > 0", "0.3"),
          new Setting(CONTAINER_ETCD_IMAGE, "an image", "registry.k8s.io/etcd:<etcd version>-0"),
          new Setting(
              CONTAINER_APISERVER_IMAGE, "an image", "registry.k8s.io/kube-apiserver:v<version>"),
          new Setting(
              CONTAINER_CONTROLLER_MANAGER_IMAGE,
              "an image",
              "registry.k8s.io/kube-controller-manager:v<version>"));

  private Settings() {}

  /** The environment variable that mirrors a {@code kubeharness.*} property. */
  public static String environmentVariable(String property) {
    String rest = property.startsWith("kubeharness.") ? property.substring(12) : property;
    return "KUBE_HARNESS_" + rest.replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
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

  /** A setting naming one constant of {@code type} (any case). */
  public static <E extends Enum<E>> Optional<E> enumValue(String property, Class<E> type) {
    return get(property).map(value -> parseEnum(value, type, describe(property)));
  }

  /** {@code value} as a constant of {@code type} (any case); {@code source} names it on failure. */
  public static <E extends Enum<E>> E parseEnum(String value, Class<E> type, String source) {
    try {
      return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new KubeHarnessException(
          "Unknown "
              + type.getSimpleName().replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT)
              + " '"
              + value
              + "' in "
              + source
              + ". Expected one of: "
              + Arrays.stream(type.getEnumConstants())
                  .map(c -> c.name().toLowerCase(Locale.ROOT))
                  .collect(Collectors.joining(", ")));
    }
  }

  /** A setting of {@code true} or {@code false} (any case). */
  public static Optional<Boolean> booleanValue(String property) {
    return get(property)
        .map(
            value -> {
              if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(value);
              }
              throw new KubeHarnessException(
                  "Invalid value '"
                      + value
                      + "' in "
                      + describe(property)
                      + ": expected true or false.");
            });
  }

  /** A whole number greater than zero. */
  public static Optional<Integer> positiveInt(String property) {
    return get(property)
        .map(
            value -> {
              try {
                int number = Integer.parseInt(value);
                if (number > 0) {
                  return number;
                }
              } catch (NumberFormatException e) {
                // reported below, with the setting's name
              }
              throw new KubeHarnessException(
                  "Invalid value '"
                      + value
                      + "' in "
                      + describe(property)
                      + ": expected a whole number greater than 0.");
            });
  }

  /** A positive number of seconds, fractions allowed (30, 2.5). */
  public static Optional<Duration> seconds(String property) {
    return get(property).map(value -> parseSeconds(value, property));
  }

  private static Duration parseSeconds(String value, String property) {
    try {
      BigDecimal seconds = new BigDecimal(value);
      if (seconds.signum() > 0) {
        return Duration.ofMillis(Math.max(1, seconds.movePointRight(3).longValue()));
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // reported below, with the setting's name
    }
    throw new KubeHarnessException(
        "Invalid value '"
            + value
            + "' in "
            + describe(property)
            + ": expected a positive number of seconds, e.g. 30 or 2.5.");
  }
}
