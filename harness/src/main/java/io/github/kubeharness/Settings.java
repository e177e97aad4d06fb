package io.github.kubeharness;

import java.util.Locale;

/**
 * The names of kube-harness's settings, each the system property that sets it (for example {@code
 * System.setProperty(Settings.PROFILE, "standard")} or {@code -Dkubeharness.profile=standard}); the
 * environment variable that mirrors it is the name without {@code kubeharness.}, upper-cased, dots
 * and dashes turned into underscores and prefixed with {@code KUBE_HARNESS_}.
 *
 * <p>Names only (and how they are written in messages): this class reads nothing. What each setting
 * takes, its default and how it is read are in the registry above the values, {@link
 * io.github.kubeharness.settings.HarnessSettings}, from which docs/configuration.md is generated.
 * Precedence, highest first: an annotation attribute or an explicit option in code, then the system
 * property, then the environment variable, then the documented default.
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

  private Settings() {}

  /** The environment variable that mirrors a {@code kubeharness.*} property: its naming rule. */
  public static String environmentVariable(String property) {
    String rest = property.startsWith("kubeharness.") ? property.substring(12) : property;
    return "KUBE_HARNESS_" + rest.replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
  }

  /** Where a setting is set, for messages: {@code system property P / environment variable V}. */
  public static String describe(String property) {
    return "system property "
        + property
        + " / environment variable "
        + environmentVariable(property);
  }
}
