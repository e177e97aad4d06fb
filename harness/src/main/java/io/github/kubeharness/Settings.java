package io.github.kubeharness;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Every setting of the harness, each readable as a system property or an environment variable:
 * {@link #ALL} is the one registry of typed {@link Setting}s that the entry points (the JUnit
 * extension, {@link ControlPlaneOptions.Builder#build()}, the CLI) resolve once, that {@code
 * kube-harness env} prints and that docs/configuration.md's table is generated from ({@code
 * kube-harness env --markdown}). Nothing below the entry points reads them: the backends get their
 * values from {@link ControlPlaneOptions}. The constants here are the settings' names.
 *
 * <p>Precedence, highest first: an annotation attribute or an explicit option in code, then the
 * system property (for example {@code -Dkubeharness.profile=standard}), then the environment
 * variable ({@code KUBE_HARNESS_PROFILE=standard}), then the documented default. The environment
 * variable name is the property name without {@code kubeharness.}, upper-cased, dots and dashes
 * turned into underscores and prefixed with {@code KUBE_HARNESS_}. A value that cannot be read
 * fails with the setting's name and the values it takes.
 */
public final class Settings {

  /** Backend: {@code auto|local|container|k3s|existing|kind}. Default {@code auto}. */
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
   * Keep the control plane of a backend that can ({@code local}, {@code kind}) when the JVM exits,
   * for the next JVM with the same configuration to attach to. A kept {@code local} control plane
   * stops after {@link #REUSE_IDLE_MINUTES} without a JVM attached, or at once with {@code
   * kube-harness down}; a kept kind cluster stays until {@code make kind-delete}. Default {@code
   * false}.
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

  /**
   * The default StorageClass the {@code simulated} profile installs (binding mode {@code
   * Immediate}, served by {@link io.github.kubeharness.simulation.StorageSimulation#PROVISIONER});
   * {@code none} installs none. Default {@code standard}.
   */
  public static final String SIMULATED_STORAGE_CLASS = "kubeharness.simulated.storage.class";

  /** etcd image of the container backend. Default {@code registry.k8s.io/etcd:<its version>-0}. */
  public static final String CONTAINER_ETCD_IMAGE = "kubeharness.container.etcd.image";

  /**
   * kube-apiserver image of the container backend. Default {@code registry.k8s.io/...:v<version>}.
   */
  public static final String CONTAINER_APISERVER_IMAGE = "kubeharness.container.apiserver.image";

  /** kube-controller-manager image of the container backend. Default from registry.k8s.io. */
  public static final String CONTAINER_CONTROLLER_MANAGER_IMAGE =
      "kubeharness.container.controller-manager.image";

  /**
   * The Go command that builds missing binaries (and kind, KWOK) from Go modules. Default {@code
   * go} from the PATH.
   */
  public static final String GO = "kubeharness.go";

  /**
   * Whether a failing test waits, its cluster, namespace and controllers kept, for someone to look
   * ({@code false}, {@code true}: not in CI, {@code always}). Default false.
   */
  public static final String PAUSE_ON_FAILURE = "kubeharness.pauseOnFailure";

  /**
   * {@code @ControllerTest(clusters)} on the local backend: {@code shared} (the further clusters'
   * apiservers on the first cluster's etcd, a key prefix each) or {@code own} (each a whole control
   * plane with an etcd of its own). Default {@code shared}.
   */
  public static final String CLUSTERS_ETCD = "kubeharness.clusters.etcd";

  /** How long a test paused on its failure waits for its resume file. Default 30. */
  public static final String PAUSE_ON_FAILURE_MINUTES = "kubeharness.pauseOnFailure.minutes";

  /**
   * The seed of a test's random choices in the controlled watch delivery and fault rules
   * (docs/races.md): set it to the seed a failed test printed to replay its schedule. Default: a
   * new seed per test.
   */
  public static final String SEED = "kubeharness.seed";

  /** Every setting, typed, in the order {@code kube-harness env} and the docs list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          Setting.choice(BACKEND, Backend.class, Backend.AUTO)
              .annotation("backend")
              .builder("withBackend")
              .cli("--backend")
              .doc("where the API server comes from (see [Backends](backends.md))"),
          Setting.choice(PROFILE, Profile.class, Profile.MINIMAL)
              .annotation("profile")
              .builder("withProfile")
              .cli("--profile")
              .doc(
                  "the components: `minimal` (etcd + kube-apiserver), `standard` (+"
                      + " kube-controller-manager), `simulated` (+ scheduler, workload"
                      + " controllers, KWOK's fake nodes; local only); unset, `standard` on k3s,"
                      + " kind and existing (see [what each backend can do](backends.md))"),
          Setting.of(
                  KUBERNETES_VERSION,
                  String.class,
                  "MAJOR.MINOR.PATCH",
                  value -> value,
                  () -> Versions.KUBERNETES,
                  Versions.KUBERNETES)
              .annotation("kubernetesVersion")
              .builder("withKubernetesVersion")
              .cli("--kubernetes-version")
              .doc("Kubernetes version to provision and run"),
          Setting.of(
                  KUBERNETES_VERSIONS,
                  String.class,
                  "versions, comma-separated",
                  value -> value,
                  () -> null,
                  "each class's `kubernetesVersions`")
              .annotation("kubernetesVersions")
              .notOnCli("a matrix runs one control plane per version; the CLI starts one")
              .doc(
                  "the version matrix of `@MatrixTest`s (`1.35,1.36,1.37`; a minor is its newest"
                      + " patch): replaces every class's own, so CI widens or narrows it without"
                      + " code changes"),
          Setting.choice(NETWORK, NetworkMode.class, NetworkMode.BRIDGE)
              .builder("container().withNetwork", "k3s().withNetwork")
              .cli("--network")
              .readBy(Backend.CONTAINER, Backend.K3S)
              .doc("container networking: `bridge` (mapped ports) or `host`"),
          Setting.flag(OFFLINE, false)
              .builder("withOffline")
              .doc(
                  "`true`: no envtest release download and no image pull by the `container` and"
                      + " `kind` backends (use or build what is there). A Go build still fetches"
                      + " through `GOPROXY`, and the `k3s` backend still pulls a missing image:"
                      + " see [Offline](provisioning.md#offline)"),
          Setting.of(
                  CACHE_DIR,
                  java.nio.file.Path.class,
                  "a directory",
                  java.nio.file.Path::of,
                  Settings::defaultCache,
                  "`$XDG_CACHE_HOME/kube-harness` or `~/.cache/kube-harness`")
              .builder("withCacheDirectory")
              .doc("binary cache and Go build modules"),
          Setting.of(
                  RELEASE_INDEX_URL,
                  java.net.URI.class,
                  "a URL",
                  java.net.URI::create,
                  () -> ControlPlaneOptions.DEFAULT_RELEASE_INDEX,
                  "controller-tools' `envtest-releases.yaml`")
              .builder("withReleaseIndex")
              .readBy(Backend.LOCAL, Backend.CONTAINER)
              .doc("mirror of the envtest release index"),
          Setting.of(GO, String.class, "a command", value -> value, () -> "go", "`go`")
              .builder("withGoCommand")
              .doc("the Go command that builds missing binaries (and kind, KWOK) from Go modules"),
          Setting.seconds(START_TIMEOUT_SECONDS, Duration.ofSeconds(60))
              .builder("withStartTimeout")
              .doc("how long a start may take (fractions allowed)"),
          Setting.seconds(EVENTUALLY_TIMEOUT_SECONDS, Duration.ofSeconds(30))
              .doc("default timeout of `eventually`"),
          Setting.choice(CLUSTERS_ETCD, ClusterEtcd.class, ClusterEtcd.SHARED)
              .readBy(Backend.LOCAL)
              .doc(
                  "the further clusters of `@ControllerTest(clusters)` (whose names only the"
                      + " attribute gives): `shared`, apiservers on the first cluster's etcd, a key"
                      + " prefix each, started while it starts; `own`, each a whole control plane"
                      + " with an etcd of its own (the other backends always do that; [Several"
                      + " clusters](multi-cluster.md))"),
          Setting.choice(PAUSE_ON_FAILURE, PauseOnFailure.class, PauseOnFailure.FALSE)
              .doc(
                  "`true`: a failing test waits before its teardown, cluster, namespace and"
                      + " controllers kept as they were, and prints a `kubectl` line and the file"
                      + " to touch to go on (not in CI unless `always`; [Pause on"
                      + " failure](controller-test.md#pause-on-failure))"),
          Setting.minutes(PAUSE_ON_FAILURE_MINUTES, Duration.ofMinutes(30))
              .doc("how long a test paused on its failure waits for its resume file"),
          Setting.wholeNumber(SEED, "a new one per test, printed when it fails")
              .doc(
                  "the seed of the random choices of [controlled watch delivery](races.md) and"
                      + " fault rules' `probability`: the seed a failed test printed replays its"
                      + " schedule"),
          Setting.flag(REUSE, false)
              .builder("withReuse")
              .cli("--reuse")
              .readBy(Backend.LOCAL, Backend.KIND)
              .doc(
                  "`true`: keep the control plane (`local`) or cluster (`kind`) when the JVM exits"
                      + " and attach to a kept one ([A warm control plane across"
                      + " runs](reuse.md))"),
          Setting.minutes(REUSE_IDLE_MINUTES, Duration.ofMinutes(10))
              .builder("local().withReuseIdleTimeout")
              .readBy(Backend.LOCAL)
              .doc("how long a kept control plane waits with no JVM attached before it stops"),
          Setting.count(SIMULATED_NODES, 1)
              .builder("local().withSimulatedNodes")
              .readBy(Backend.LOCAL)
              .doc("fake nodes the `simulated` profile starts with"),
          Setting.seconds(SIMULATED_POD_START_SECONDS, Duration.ofMillis(300))
              .builder("local().withPodStartDelay")
              .readBy(Backend.LOCAL)
              .doc(
                  "`simulated`: scheduled → Running and Ready (and a Job's pod Running →"
                      + " Succeeded)"),
          Setting.of(
                  SIMULATED_STORAGE_CLASS,
                  String.class,
                  "a name",
                  value -> value,
                  () -> "standard",
                  "`standard`")
              .builder("local().withSimulatedStorageClass")
              .readBy(Backend.LOCAL)
              .doc(
                  "`simulated`: the default StorageClass installed (binding `Immediate`, claims"
                      + " provisioned in-JVM; `none`: no default class), see"
                      + " [Storage](storage.md)"),
          image(K3S_IMAGE, "`rancher/k3s:v<version>-k3s1`")
              .builder("k3s().withImage")
              .readBy(Backend.K3S)
              .doc("image of the k3s backend"),
          image(
                  KIND_IMAGE,
                  "`kube-harness/kind-node:v<version>` where built (`make kind-image`), else"
                      + " `kindest/node:v<version>`")
              .builder("kind().withImage")
              .readBy(Backend.KIND)
              .doc("node image of the kind backend"),
          image(CONTAINER_ETCD_IMAGE, "`registry.k8s.io/etcd:<etcd version>-0`")
              .builder("container().withEtcdImage")
              .readBy(Backend.CONTAINER)
              .doc("etcd image of the container backend"),
          image(CONTAINER_APISERVER_IMAGE, "`registry.k8s.io/kube-apiserver:v<version>`")
              .builder("container().withApiServerImage")
              .readBy(Backend.CONTAINER)
              .doc("kube-apiserver image of the container backend"),
          image(
                  CONTAINER_CONTROLLER_MANAGER_IMAGE,
                  "`registry.k8s.io/kube-controller-manager:v<version>`")
              .builder("container().withControllerManagerImage")
              .readBy(Backend.CONTAINER)
              .doc("kube-controller-manager image of the container backend"));

  // An image whose default depends on the version (and on what Docker holds): the backend decides.
  private static Setting<String> image(String property, String defaultText) {
    return Setting.of(property, String.class, "an image", value -> value, () -> null, defaultText);
  }

  /** The registry entry of {@code property}, typed; a programming error when there is none. */
  public static <T> Setting<T> entry(String property, Class<T> type) {
    return ALL.stream()
        .filter(s -> s.property().equals(property))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no setting " + property))
        .as(type);
  }

  private static java.nio.file.Path defaultCache() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    java.nio.file.Path base =
        xdg != null && !xdg.isBlank()
            ? java.nio.file.Path.of(xdg)
            : java.nio.file.Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("kube-harness");
  }

  private Settings() {}

  /** The environment variable that mirrors a {@code kubeharness.*} property. */
  public static String environmentVariable(String property) {
    String rest = property.startsWith("kubeharness.") ? property.substring(12) : property;
    return "KUBE_HARNESS_" + rest.replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
  }

  /** The value of a setting: system property first, then environment variable; blank is unset. */
  public static Optional<String> get(String property) {
    return written(property).map(Written::value);
  }

  /** A setting's value as {@link #get} finds it, and where: {@code system property P}. */
  record Written(String value, String where) {}

  /** {@link #get}'s value with the place it was written, for messages. */
  static Optional<Written> written(String property) {
    Optional<String> value = nonBlank(System.getProperty(property));
    if (value.isPresent()) {
      return Optional.of(new Written(value.get(), "system property " + property));
    }
    String variable = environmentVariable(property);
    return nonBlank(System.getenv(variable))
        .map(v -> new Written(v, "environment variable " + variable));
  }

  private static Optional<String> nonBlank(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  /** Describes where a setting is read from, for error messages. */
  public static String describe(String property) {
    return "system property "
        + property
        + " / environment variable "
        + environmentVariable(property);
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
}
