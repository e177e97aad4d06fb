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

  /** Backend: {@code auto|local|container|k3s|existing|kind}. */
  public static final String BACKEND = "kubeharness.backend";

  /** Profile: {@code minimal|standard|simulated}. */
  public static final String PROFILE = "kubeharness.profile";

  /** Kubernetes version of the control plane, e.g. {@code 1.37.2}. */
  public static final String KUBERNETES_VERSION = "kubeharness.kubernetes.version";

  /**
   * The version matrix of {@code @MatrixTest} methods, comma-separated ({@code 1.35,1.36,1.37}; a
   * minor means its newest patch): replaces the classes' {@code kubernetesVersions}, so that CI can
   * widen or narrow the matrix without code changes.
   */
  public static final String KUBERNETES_VERSIONS = "kubeharness.kubernetes.versions";

  /** Container network mode: {@code bridge|host}. */
  public static final String NETWORK = "kubeharness.network";

  /**
   * {@code true}: kube-harness downloads no envtest release archive (nor its index), and the
   * container and kind backends pull no image; what is missing fails, naming how to provide it.
   */
  public static final String OFFLINE = "kubeharness.offline";

  /** Root of the binary cache. */
  public static final String CACHE_DIR = "kubeharness.cache.dir";

  /** URL of the envtest release index (YAML), for mirrors. */
  public static final String RELEASE_INDEX_URL = "kubeharness.release.index.url";

  /** Seconds to wait for a control plane to become ready. */
  public static final String START_TIMEOUT_SECONDS = "kubeharness.start.timeout.seconds";

  /** Default timeout of {@code eventually}, in seconds. */
  public static final String EVENTUALLY_TIMEOUT_SECONDS = "kubeharness.eventually.timeout.seconds";

  /** Image of the k3s backend. */
  public static final String K3S_IMAGE = "kubeharness.k3s.image";

  /** Node image of the kind backend. */
  public static final String KIND_IMAGE = "kubeharness.kind.image";

  /**
   * Keep the control plane of a backend that can ({@code local}, {@code kind}) when the JVM exits,
   * for the next JVM with the same configuration to attach to.
   */
  public static final String REUSE = "kubeharness.reuse";

  /** Minutes a kept control plane waits without an attached JVM before it stops. */
  public static final String REUSE_IDLE_MINUTES = "kubeharness.reuse.idle.minutes";

  /** How many fake nodes the {@code simulated} profile starts with. */
  public static final String SIMULATED_NODES = "kubeharness.simulated.nodes";

  /**
   * Seconds a pod of the {@code simulated} profile takes from scheduled to Running and Ready (and a
   * Job's pod from Running to Succeeded).
   */
  public static final String SIMULATED_POD_START_SECONDS =
      "kubeharness.simulated.pod.start.seconds";

  /**
   * The default StorageClass the {@code simulated} profile installs (binding mode {@code
   * Immediate}, served by {@link io.github.kubeharness.simulation.StorageSimulation#PROVISIONER});
   * {@code none} installs none.
   */
  public static final String SIMULATED_STORAGE_CLASS = "kubeharness.simulated.storage.class";

  /** etcd image of the container backend. */
  public static final String CONTAINER_ETCD_IMAGE = "kubeharness.container.etcd.image";

  /** kube-apiserver image of the container backend. */
  public static final String CONTAINER_APISERVER_IMAGE = "kubeharness.container.apiserver.image";

  /** kube-controller-manager image of the container backend. */
  public static final String CONTAINER_CONTROLLER_MANAGER_IMAGE =
      "kubeharness.container.controller-manager.image";

  /** The Go command that builds missing binaries (and kind, KWOK) from Go modules. */
  public static final String GO = "kubeharness.go";

  /**
   * Whether a failing test waits, its cluster, namespace and controllers kept, for someone to look
   * ({@code false}, {@code true}: not in CI, {@code always}).
   */
  public static final String PAUSE_ON_FAILURE = "kubeharness.pauseOnFailure";

  /**
   * {@code @ControllerTest(clusters)} on the local backend: {@code shared} (the further clusters'
   * apiservers on the first cluster's etcd, a key prefix each) or {@code own} (each a whole control
   * plane with an etcd of its own).
   */
  public static final String CLUSTERS_ETCD = "kubeharness.clusters.etcd";

  /** How long a test paused on its failure waits for its resume file. */
  public static final String PAUSE_ON_FAILURE_MINUTES = "kubeharness.pauseOnFailure.minutes";

  /**
   * The seed of a test's random choices in the controlled watch delivery and fault rules
   * (docs/races.md): set it to the seed a failed test printed to replay its schedule.
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
