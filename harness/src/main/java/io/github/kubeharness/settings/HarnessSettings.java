package io.github.kubeharness.settings;

import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ClusterEtcd;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.PauseOnFailure;
import io.github.kubeharness.Profile;
import io.github.kubeharness.Settings;
import io.github.kubeharness.Versions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every setting of the harness, typed: each constant is the key its value is read by ({@code
 * HarnessSettings.SEED.read()}), and {@link #ALL} is the one registry that {@link SettingsResolver}
 * turns into {@link ControlPlaneOptions}, that {@code kube-harness env} prints and that the docs'
 * tables are generated from. It stands above the values it reads ({@link Backend}, {@link Profile},
 * the option records): they know nothing of it. Their names, for {@code System.setProperty}, are in
 * {@link Settings}.
 *
 * <p>Precedence, highest first: an annotation attribute or an explicit option in code, then the
 * system property, then the environment variable, then the documented default. envtest's variables
 * ({@link #USE_EXISTING_CLUSTER}, {@link #KUBEBUILDER_ASSETS}, {@link #TEST_ASSET}) are read as
 * envtest reads them, from the environment only.
 */
public final class HarnessSettings {

  private HarnessSettings() {}

  public static final Setting<Backend> BACKEND =
      Setting.choice(Settings.BACKEND, Backend.class, Backend.AUTO)
          .annotation("backend")
          .builder("withBackend")
          .cli("--backend")
          .heldBy(o -> Optional.of(o.backend()))
          .doc("where the API server comes from (see [Backends](backends.md))");

  public static final Setting<Profile> PROFILE =
      Setting.choice(Settings.PROFILE, Profile.class, Profile.MINIMAL)
          .annotation("profile")
          .builder("withProfile")
          .cli("--profile")
          .heldBy(o -> Optional.of(o.profile()))
          .doc(
              "the components: `minimal` (etcd + kube-apiserver), `standard` (+"
                  + " kube-controller-manager), `simulated` (+ scheduler, workload"
                  + " controllers, KWOK's fake nodes; local only); unset, `standard` on k3s,"
                  + " kind and existing (see [what each backend can do](backends.md))");

  public static final Setting<String> KUBERNETES_VERSION =
      Setting.text(
              Settings.KUBERNETES_VERSION,
              "MAJOR.MINOR.PATCH",
              () -> Versions.KUBERNETES,
              Versions.KUBERNETES)
          .annotation("kubernetesVersion")
          .builder("withKubernetesVersion")
          .cli("--kubernetes-version")
          .heldBy(o -> Optional.of(o.kubernetesVersion()))
          .doc("Kubernetes version to provision and run");

  public static final Setting<String> KUBERNETES_VERSIONS =
      Setting.text(
              Settings.KUBERNETES_VERSIONS,
              "versions, comma-separated",
              () -> null,
              "each class's `kubernetesVersions`")
          .annotation("kubernetesVersions")
          .notOnCli("a matrix runs one control plane per version; the CLI starts one")
          .doc(
              "the version matrix of `@MatrixTest`s (`1.35,1.36,1.37`; a minor is its newest"
                  + " patch): replaces every class's own, so CI widens or narrows it without"
                  + " code changes");

  public static final Setting<NetworkMode> NETWORK =
      Setting.choice(Settings.NETWORK, NetworkMode.class, NetworkMode.BRIDGE)
          .builder("container().withNetwork", "k3s().withNetwork")
          .cli("--network")
          .readBy(Backend.CONTAINER, Backend.K3S)
          .heldBy(Held::network)
          .doc("container networking: `bridge` (mapped ports) or `host`");

  public static final Setting<Boolean> OFFLINE =
      Setting.flag(Settings.OFFLINE, false)
          .builder("withOffline")
          .heldBy(o -> Optional.of(o.offline()))
          .doc(
              "`true`: no envtest release download and no image pull by the `container` and"
                  + " `kind` backends (use or build what is there). A Go build still fetches"
                  + " through `GOPROXY`, and the `k3s` backend still pulls a missing image:"
                  + " see [Offline](provisioning.md#offline)");

  public static final Setting<Path> CACHE_DIR =
      Setting.of(
              Settings.CACHE_DIR,
              Path.class,
              "a directory",
              (value, source) -> Path.of(value),
              Path::toString,
              HarnessSettings::defaultCache,
              "`$XDG_CACHE_HOME/kube-harness` or `~/.cache/kube-harness`")
          .builder("withCacheDirectory")
          .heldBy(o -> Optional.of(o.cacheDirectory()))
          .doc("binary cache and Go build modules");

  public static final Setting<URI> RELEASE_INDEX_URL =
      Setting.of(
              Settings.RELEASE_INDEX_URL,
              URI.class,
              "a URL",
              (value, source) -> URI.create(value),
              URI::toString,
              () -> ControlPlaneOptions.DEFAULT_RELEASE_INDEX,
              "controller-tools' `envtest-releases.yaml`")
          .builder("withReleaseIndex")
          .readBy(Backend.LOCAL, Backend.CONTAINER)
          .heldBy(o -> Optional.of(o.releaseIndex()))
          .doc("mirror of the envtest release index");

  public static final Setting<String> GO =
      Setting.text(
              Settings.GO,
              "a command",
              () -> ControlPlaneOptions.DEFAULT_GO_COMMAND,
              "`" + ControlPlaneOptions.DEFAULT_GO_COMMAND + "`")
          .builder("withGoCommand")
          .heldBy(o -> Optional.of(o.goCommand()))
          .doc("the Go command that builds missing binaries (and kind, KWOK) from Go modules");

  public static final Setting<Duration> START_TIMEOUT =
      Setting.seconds(Settings.START_TIMEOUT_SECONDS, ControlPlaneOptions.DEFAULT_START_TIMEOUT)
          .builder("withStartTimeout")
          .heldBy(o -> Optional.of(o.startTimeout()))
          .doc("how long a start may take (fractions allowed)");

  /** The one default of {@code eventually}'s timeout. */
  public static final Setting<Duration> EVENTUALLY_TIMEOUT =
      Setting.seconds(Settings.EVENTUALLY_TIMEOUT_SECONDS, Duration.ofSeconds(30))
          .doc("default timeout of `eventually`");

  public static final Setting<ClusterEtcd> CLUSTERS_ETCD =
      Setting.choice(Settings.CLUSTERS_ETCD, ClusterEtcd.class, ClusterEtcd.SHARED)
          .readBy(Backend.LOCAL)
          .doc(
              "the further clusters of `@ControllerTest(clusters)` (whose names only the"
                  + " attribute gives): `shared`, apiservers on the first cluster's etcd, a key"
                  + " prefix each, started while it starts; `own`, each a whole control plane"
                  + " with an etcd of its own (the other backends always do that; [Several"
                  + " clusters](multi-cluster.md))");

  public static final Setting<PauseOnFailure> PAUSE_ON_FAILURE =
      Setting.choice(Settings.PAUSE_ON_FAILURE, PauseOnFailure.class, PauseOnFailure.FALSE)
          .doc(
              "`true`: a failing test waits before its teardown, cluster, namespace and"
                  + " controllers kept as they were, and prints a `kubectl` line and the file"
                  + " to touch to go on (not in CI unless `always`; [Pause on"
                  + " failure](controller-test.md#pause-on-failure))");

  public static final Setting<Duration> PAUSE_ON_FAILURE_MINUTES =
      Setting.minutes(Settings.PAUSE_ON_FAILURE_MINUTES, Duration.ofMinutes(30))
          .doc("how long a test paused on its failure waits for its resume file");

  public static final Setting<Long> SEED =
      Setting.wholeNumber(Settings.SEED, "a new one per test, printed when it fails")
          .doc(
              "the seed of the random choices of [controlled watch delivery](races.md) and"
                  + " fault rules' `probability`: the seed a failed test printed replays its"
                  + " schedule");

  public static final Setting<Boolean> REUSE =
      Setting.flag(Settings.REUSE, false)
          .builder("withReuse")
          .cli("--reuse")
          .readBy(Backend.LOCAL, Backend.KIND)
          .heldBy(o -> Optional.of(o.reuse()))
          .doc(
              "`true`: keep the control plane (`local`) or cluster (`kind`) when the JVM exits"
                  + " and attach to a kept one ([A warm control plane across"
                  + " runs](reuse.md))");

  public static final Setting<Duration> REUSE_IDLE_MINUTES =
      Setting.minutes(Settings.REUSE_IDLE_MINUTES, BackendOptions.local().reuseIdleTimeout())
          .builder("local().withReuseIdleTimeout")
          .readBy(Backend.LOCAL)
          .heldBy(o -> Held.local(o).map(BackendOptions.Local::reuseIdleTimeout))
          .doc("how long a kept control plane waits with no JVM attached before it stops");

  public static final Setting<Integer> SIMULATED_NODES =
      Setting.count(Settings.SIMULATED_NODES, BackendOptions.local().simulatedNodes())
          .builder("local().withSimulatedNodes")
          .readBy(Backend.LOCAL)
          .heldBy(o -> Held.local(o).map(BackendOptions.Local::simulatedNodes))
          .doc("fake nodes the `simulated` profile starts with");

  public static final Setting<Duration> SIMULATED_POD_START =
      Setting.seconds(Settings.SIMULATED_POD_START_SECONDS, BackendOptions.local().podStartDelay())
          .builder("local().withPodStartDelay")
          .readBy(Backend.LOCAL)
          .heldBy(o -> Held.local(o).map(BackendOptions.Local::podStartDelay))
          .doc("`simulated`: scheduled → Running and Ready (and a Job's pod Running → Succeeded)");

  public static final Setting<String> SIMULATED_STORAGE_CLASS =
      Setting.text(
              Settings.SIMULATED_STORAGE_CLASS,
              "a name",
              () -> BackendOptions.local().simulatedStorageClass(),
              "`" + BackendOptions.local().simulatedStorageClass() + "`")
          .builder("local().withSimulatedStorageClass")
          .readBy(Backend.LOCAL)
          .heldBy(o -> Held.local(o).map(BackendOptions.Local::simulatedStorageClass))
          .doc(
              "`simulated`: the default StorageClass installed (binding `Immediate`, claims"
                  + " provisioned in-JVM; `none`: no default class), see"
                  + " [Storage](storage.md)");

  public static final Setting<String> K3S_IMAGE =
      image(Settings.K3S_IMAGE, "`rancher/k3s:v<version>-k3s1`")
          .builder("k3s().withImage")
          .readBy(Backend.K3S)
          .heldBy(Held::k3sImage)
          .doc("image of the k3s backend");

  public static final Setting<String> KIND_IMAGE =
      image(
              Settings.KIND_IMAGE,
              "`kube-harness/kind-node:v<version>` where built (`make kind-image`), else"
                  + " `kindest/node:v<version>`")
          .builder("kind().withImage")
          .readBy(Backend.KIND)
          .heldBy(Held::kindImage)
          .doc("node image of the kind backend");

  public static final Setting<String> CONTAINER_ETCD_IMAGE =
      image(Settings.CONTAINER_ETCD_IMAGE, "`registry.k8s.io/etcd:<etcd version>-0`")
          .builder("container().withEtcdImage")
          .readBy(Backend.CONTAINER)
          .heldBy(o -> Held.container(o).flatMap(BackendOptions.Container::etcdImage))
          .doc("etcd image of the container backend");

  public static final Setting<String> CONTAINER_APISERVER_IMAGE =
      image(Settings.CONTAINER_APISERVER_IMAGE, "`registry.k8s.io/kube-apiserver:v<version>`")
          .builder("container().withApiServerImage")
          .readBy(Backend.CONTAINER)
          .heldBy(o -> Held.container(o).flatMap(BackendOptions.Container::apiServerImage))
          .doc("kube-apiserver image of the container backend");

  public static final Setting<String> CONTAINER_CONTROLLER_MANAGER_IMAGE =
      image(
              Settings.CONTAINER_CONTROLLER_MANAGER_IMAGE,
              "`registry.k8s.io/kube-controller-manager:v<version>`")
          .builder("container().withControllerManagerImage")
          .readBy(Backend.CONTAINER)
          .heldBy(o -> Held.container(o).flatMap(BackendOptions.Container::controllerManagerImage))
          .doc("kube-controller-manager image of the container backend");

  /** envtest's switch to its existing cluster: {@code auto} chooses {@code existing}. */
  public static final Setting<Boolean> USE_EXISTING_CLUSTER =
      Setting.envtest("USE_EXISTING_CLUSTER", Boolean.class, "true|false", Parsers::bool, "`false`")
          .heldBy(
              o ->
                  Optional.of(
                      o.backendOptions() instanceof BackendOptions.Auto auto
                          && auto.existingCluster()))
          .doc("envtest's: `true` makes `auto` choose `existing` (the current kubeconfig)");

  /** envtest's directory of prebuilt binaries. */
  public static final Setting<Path> KUBEBUILDER_ASSETS =
      Setting.envtest(
              "KUBEBUILDER_ASSETS",
              Path.class,
              "a directory",
              (value, source) -> Path.of(value),
              "unset")
          .builder("withAssetsDirectory")
          .heldBy(ControlPlaneOptions::assetsDirectory)
          .doc(
              "envtest's: a directory holding `etcd`, `kube-apiserver` (and optionally `kubectl`,"
                  + " `kube-controller-manager`), used before the cache");

  /**
   * envtest's {@code TEST_ASSET_<NAME>} variables, one binary each ({@code TEST_ASSET_ETCD}, {@code
   * TEST_ASSET_KUBE_APISERVER}, ...), each naming one binary's file.
   */
  public static final Setting<Path> TEST_ASSET =
      Setting.envtest(
              "TEST_ASSET_<NAME>", Path.class, "a file", (value, source) -> Path.of(value), "unset")
          .builder("withBinary")
          .doc(
              "envtest's: the binary `<name>` (`TEST_ASSET_KUBE_APISERVER`, ...), before"
                  + " `KUBEBUILDER_ASSETS`");

  /** Every setting, in the order {@code kube-harness env} and the docs list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          BACKEND,
          PROFILE,
          KUBERNETES_VERSION,
          KUBERNETES_VERSIONS,
          NETWORK,
          OFFLINE,
          CACHE_DIR,
          RELEASE_INDEX_URL,
          GO,
          START_TIMEOUT,
          EVENTUALLY_TIMEOUT,
          CLUSTERS_ETCD,
          PAUSE_ON_FAILURE,
          PAUSE_ON_FAILURE_MINUTES,
          SEED,
          REUSE,
          REUSE_IDLE_MINUTES,
          SIMULATED_NODES,
          SIMULATED_POD_START,
          SIMULATED_STORAGE_CLASS,
          K3S_IMAGE,
          KIND_IMAGE,
          CONTAINER_ETCD_IMAGE,
          CONTAINER_APISERVER_IMAGE,
          CONTAINER_CONTROLLER_MANAGER_IMAGE,
          USE_EXISTING_CLUSTER,
          KUBEBUILDER_ASSETS,
          TEST_ASSET);

  /** The files envtest's {@code TEST_ASSET_<NAME>} variables name, by binary: kube-apiserver. */
  static Map<String, Path> testAssets() {
    Map<String, Path> assets = new TreeMap<>();
    System.getenv()
        .forEach(
            (variable, value) -> {
              if (variable.startsWith("TEST_ASSET_") && !value.isBlank()) {
                String binary = variable.substring(11).toLowerCase(Locale.ROOT).replace('_', '-');
                assets.put(binary, TEST_ASSET.parse(value, "environment variable " + variable));
              }
            });
    return assets;
  }

  // An image whose default depends on the version (and on what Docker holds): the backend decides.
  private static Setting<String> image(String property, String defaultText) {
    return Setting.text(property, "an image", () -> null, defaultText);
  }

  private static Path defaultCache() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("kube-harness");
  }
}
