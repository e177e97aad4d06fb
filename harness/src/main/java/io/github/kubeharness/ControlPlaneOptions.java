package io.github.kubeharness;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How to obtain binaries for, and start, a control plane. Immutable; build one with {@link
 * #builder()}. Every unset option is filled in {@link Builder#build()}, once, from its {@link
 * Setting} in {@link Settings#ALL} (system property, then environment variable, then the default):
 * the code below the entry points reads these options, never the settings.
 */
public final class ControlPlaneOptions {

  /** controller-tools' index of envtest release archives. */
  public static final URI DEFAULT_RELEASE_INDEX =
      URI.create(
          "https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml");

  private final Backend backend;
  private final NetworkMode network;
  private final Profile profile;
  private final boolean profileAsked;
  private final String kubernetesVersion;
  private final Duration startTimeout;
  private final boolean offline;
  private final Path cacheDirectory;
  private final URI releaseIndex;
  private final Path assetsDirectory;
  private final boolean auditLog;
  private final List<String> extraApiServerFlags;
  private final int simulatedNodes;
  private final String simulatedStorageClass;
  private final Duration podStartDelay;
  private final boolean reuse;
  private final Duration reuseIdleTimeout;
  private final String goCommand;
  private final String k3sImage;
  private final String kindImage;
  private final String containerEtcdImage;
  private final String containerApiServerImage;
  private final String containerControllerManagerImage;
  private final Consumer<String> progress;

  private ControlPlaneOptions(Builder b) {
    this.backend = setting(Settings.BACKEND, Backend.class).resolve(b.backend);
    this.network = setting(Settings.NETWORK, NetworkMode.class).resolve(b.network);
    // Unasked, the profile is the backend's default (standard on a whole cluster), so that a
    // backend never reports a profile it does not run; asked, it is checked before a start.
    Optional<Profile> askedProfile =
        b.profile != null
            ? Optional.of(b.profile)
            : b.resolved ? Optional.empty() : setting(Settings.PROFILE, Profile.class).read();
    this.profileAsked = askedProfile.isPresent();
    this.profile = askedProfile.orElse(backend.defaultProfile());
    this.kubernetesVersion =
        normalizeVersion(
            setting(Settings.KUBERNETES_VERSION, String.class).resolve(b.kubernetesVersion));
    this.startTimeout =
        setting(Settings.START_TIMEOUT_SECONDS, Duration.class).resolve(b.startTimeout);
    this.offline = setting(Settings.OFFLINE, Boolean.class).resolve(b.offline);
    this.cacheDirectory = setting(Settings.CACHE_DIR, Path.class).resolve(b.cacheDirectory);
    this.releaseIndex = setting(Settings.RELEASE_INDEX_URL, URI.class).resolve(b.releaseIndex);
    // envtest's own variable, honoured as envtest does: a fact of the machine, not our setting.
    this.assetsDirectory =
        b.assetsDirectory != null || b.resolved
            ? b.assetsDirectory
            : Optional.ofNullable(System.getenv("KUBEBUILDER_ASSETS"))
                .filter(s -> !s.isBlank())
                .map(Path::of)
                .orElse(null);
    this.goCommand = setting(Settings.GO, String.class).resolve(b.goCommand);
    this.auditLog = b.auditLog;
    this.extraApiServerFlags = List.copyOf(b.extraApiServerFlags);
    this.simulatedNodes =
        setting(Settings.SIMULATED_NODES, Integer.class).resolve(b.simulatedNodes);
    this.simulatedStorageClass =
        setting(Settings.SIMULATED_STORAGE_CLASS, String.class).resolve(b.simulatedStorageClass);
    this.podStartDelay =
        setting(Settings.SIMULATED_POD_START_SECONDS, Duration.class).resolve(b.podStartDelay);
    this.reuse =
        b.reuse != null
            ? b.reuse
            : setting(Settings.REUSE, Boolean.class)
                .read()
                .orElseGet(() -> backend == Backend.KIND && DeprecatedKindReuse.asked());
    this.reuseIdleTimeout =
        setting(Settings.REUSE_IDLE_MINUTES, Duration.class).resolve(b.reuseIdleTimeout);
    this.k3sImage = unlessResolved(b, b.k3sImage, Settings.K3S_IMAGE);
    this.kindImage = unlessResolved(b, b.kindImage, Settings.KIND_IMAGE);
    this.containerEtcdImage =
        unlessResolved(b, b.containerEtcdImage, Settings.CONTAINER_ETCD_IMAGE);
    this.containerApiServerImage =
        unlessResolved(b, b.containerApiServerImage, Settings.CONTAINER_APISERVER_IMAGE);
    this.containerControllerManagerImage =
        unlessResolved(
            b, b.containerControllerManagerImage, Settings.CONTAINER_CONTROLLER_MANAGER_IMAGE);
    this.progress =
        b.progress != null ? b.progress : line -> System.err.println("[kube-harness] " + line);
  }

  private static <T> Setting<T> setting(String property, Class<T> type) {
    return Settings.entry(property, type);
  }

  // An option whose unset value means "the backend's default": a builder from toBuilder() keeps it
  // unset, so that options are resolved once, never again below the entry points.
  private static String unlessResolved(Builder b, String explicit, String property) {
    return explicit != null || b.resolved ? explicit : setting(property, String.class).resolve();
  }

  /** A builder with nothing set: every option takes its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** Options with every default (settings and environment applied). */
  public static ControlPlaneOptions defaults() {
    return builder().build();
  }

  /** Where the control plane comes from. Default: {@link Settings#BACKEND}, else auto. */
  public Backend backend() {
    return backend;
  }

  /** Container networking of the container and k3s backends. Default: bridge. */
  public NetworkMode network() {
    return network;
  }

  /**
   * Components to run. Default: {@link Settings#PROFILE}, else the backend's {@link
   * Backend#defaultProfile()} ({@link Profile#MINIMAL}; {@link Profile#STANDARD} on k3s, kind and
   * existing, which run whole clusters).
   */
  public Profile profile() {
    return profile;
  }

  /**
   * Whether the profile was asked (builder, annotation or setting), not the backend's default: an
   * asked profile the backend cannot run is refused ({@link Backend#requireProfile}); an unasked
   * one follows the backend {@code auto} chooses.
   */
  public boolean profileAsked() {
    return profileAsked;
  }

  /** Kubernetes version without a leading {@code v}. Default: {@link Versions#KUBERNETES}. */
  public String kubernetesVersion() {
    return kubernetesVersion;
  }

  /** How long start may take before it fails. Default 60 s. */
  public Duration startTimeout() {
    return startTimeout;
  }

  /**
   * When true, no envtest release archive is downloaded and no container or kind node image pulled;
   * a Go build still fetches through GOPROXY ({@link Settings#OFFLINE} says what is and is not
   * covered). Default: {@link Settings#OFFLINE}, else false.
   */
  public boolean offline() {
    return offline;
  }

  /** Root of the binary cache. Default {@code ~/.cache/kube-harness}. */
  public Path cacheDirectory() {
    return cacheDirectory;
  }

  /** Index of envtest release archives. Default {@link #DEFAULT_RELEASE_INDEX}. */
  public URI releaseIndex() {
    return releaseIndex;
  }

  /** envtest-layout directory with prebuilt binaries. Default {@code $KUBEBUILDER_ASSETS}. */
  public Optional<Path> assetsDirectory() {
    return Optional.ofNullable(assetsDirectory);
  }

  /** Write the apiserver audit log (every request) into the run directory. Default false. */
  public boolean auditLog() {
    return auditLog;
  }

  /** Extra {@code --flag=value} arguments for kube-apiserver, last wins. Default none. */
  public List<String> extraApiServerFlags() {
    return extraApiServerFlags;
  }

  /** Fake nodes of the {@code simulated} profile. Default: {@link Settings#SIMULATED_NODES}, 1. */
  public int simulatedNodes() {
    return simulatedNodes;
  }

  /**
   * The default StorageClass of the {@code simulated} profile, empty for none. Default: {@link
   * Settings#SIMULATED_STORAGE_CLASS}, {@code standard}.
   */
  public Optional<String> simulatedStorageClass() {
    return "none".equals(simulatedStorageClass)
        ? Optional.empty()
        : Optional.of(simulatedStorageClass);
  }

  /**
   * Scheduled to Running and Ready in the {@code simulated} profile. Default: {@link
   * Settings#SIMULATED_POD_START_SECONDS}, 0.3 s.
   */
  public Duration podStartDelay() {
    return podStartDelay;
  }

  /**
   * Keep the control plane for the next JVM, and attach to one kept by an earlier JVM: the {@code
   * local} backend's processes, the {@code kind} backend's cluster; the other backends ignore it.
   * Default: {@link Settings#REUSE}, false (on kind also the deprecated {@code
   * kubeharness.kind.reuse}).
   */
  public boolean reuse() {
    return reuse;
  }

  /**
   * How long a kept control plane waits with no JVM attached before it stops. Default: {@link
   * Settings#REUSE_IDLE_MINUTES}, 10 minutes.
   */
  public Duration reuseIdleTimeout() {
    return reuseIdleTimeout;
  }

  /** The Go command that builds missing binaries. Default: {@link Settings#GO}, {@code go}. */
  public String goCommand() {
    return goCommand;
  }

  /** The k3s backend's image. Default: {@link Settings#K3S_IMAGE}, else the backend's own. */
  public Optional<String> k3sImage() {
    return Optional.ofNullable(k3sImage);
  }

  /** The kind backend's node image. Default: {@link Settings#KIND_IMAGE}, else the backend's. */
  public Optional<String> kindImage() {
    return Optional.ofNullable(kindImage);
  }

  /** The container backend's etcd image. Default: {@link Settings#CONTAINER_ETCD_IMAGE}. */
  public Optional<String> containerEtcdImage() {
    return Optional.ofNullable(containerEtcdImage);
  }

  /**
   * The container backend's kube-apiserver image. Default: {@link
   * Settings#CONTAINER_APISERVER_IMAGE}.
   */
  public Optional<String> containerApiServerImage() {
    return Optional.ofNullable(containerApiServerImage);
  }

  /**
   * The container backend's kube-controller-manager image. Default: {@link
   * Settings#CONTAINER_CONTROLLER_MANAGER_IMAGE}.
   */
  public Optional<String> containerControllerManagerImage() {
    return Optional.ofNullable(containerControllerManagerImage);
  }

  /** Receives progress lines of long work (provisioning). Default: standard error. */
  public Consumer<String> progress() {
    return progress;
  }

  /** A builder holding these options, to change some. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.resolved = true;
    b.backend = backend;
    b.network = network;
    b.profile = profileAsked ? profile : null;
    b.kubernetesVersion = kubernetesVersion;
    b.startTimeout = startTimeout;
    b.offline = offline;
    b.cacheDirectory = cacheDirectory;
    b.releaseIndex = releaseIndex;
    b.assetsDirectory = assetsDirectory;
    b.auditLog = auditLog;
    b.extraApiServerFlags.addAll(extraApiServerFlags);
    b.simulatedNodes = simulatedNodes;
    b.simulatedStorageClass = simulatedStorageClass;
    b.podStartDelay = podStartDelay;
    b.reuse = reuse;
    b.reuseIdleTimeout = reuseIdleTimeout;
    b.goCommand = goCommand;
    b.k3sImage = k3sImage;
    b.kindImage = kindImage;
    b.containerEtcdImage = containerEtcdImage;
    b.containerApiServerImage = containerApiServerImage;
    b.containerControllerManagerImage = containerControllerManagerImage;
    b.progress = progress;
    return b;
  }

  private static String normalizeVersion(String version) {
    String v = version.trim();
    if (v.startsWith("v")) {
      v = v.substring(1);
    }
    if (!v.matches("\\d+\\.\\d+\\.\\d+")) {
      throw new KubeHarnessException(
          "Kubernetes version '"
              + version
              + "' is not of the form MAJOR.MINOR.PATCH (for example "
              + Versions.KUBERNETES
              + "). Fix "
              + setting(Settings.KUBERNETES_VERSION, String.class).describe()
              + " or the kubernetesVersion option.");
    }
    return v;
  }

  /** Builds {@link ControlPlaneOptions}; unset fields take their defaults. */
  public static final class Builder {
    private Backend backend;
    private NetworkMode network;
    private Profile profile;
    private String kubernetesVersion;
    private Duration startTimeout;
    private Boolean offline;
    private Path cacheDirectory;
    private URI releaseIndex;
    private Path assetsDirectory;
    private boolean auditLog;
    private final List<String> extraApiServerFlags = new ArrayList<>();
    private Integer simulatedNodes;
    private String simulatedStorageClass;
    private Duration podStartDelay;
    private Boolean reuse;
    private Duration reuseIdleTimeout;
    private String goCommand;
    private String k3sImage;
    private String kindImage;
    private String containerEtcdImage;
    private String containerApiServerImage;
    private String containerControllerManagerImage;
    private Consumer<String> progress;
    // Made by toBuilder(): every setting was read once already.
    private boolean resolved;

    private Builder() {}

    public Builder withBackend(Backend backend) {
      this.backend = Objects.requireNonNull(backend, "backend");
      return this;
    }

    public Builder withNetwork(NetworkMode network) {
      this.network = Objects.requireNonNull(network, "network");
      return this;
    }

    public Builder withProfile(Profile profile) {
      this.profile = Objects.requireNonNull(profile, "profile");
      return this;
    }

    public Builder withKubernetesVersion(String version) {
      this.kubernetesVersion = Objects.requireNonNull(version, "version");
      return this;
    }

    public Builder withStartTimeout(Duration timeout) {
      this.startTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    public Builder withOffline(boolean offline) {
      this.offline = offline;
      return this;
    }

    public Builder withCacheDirectory(Path directory) {
      this.cacheDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    public Builder withReleaseIndex(URI index) {
      this.releaseIndex = Objects.requireNonNull(index, "index");
      return this;
    }

    public Builder withAssetsDirectory(Path directory) {
      this.assetsDirectory = directory;
      return this;
    }

    public Builder withAuditLog(boolean enabled) {
      this.auditLog = enabled;
      return this;
    }

    public Builder withExtraApiServerFlag(String flag) {
      this.extraApiServerFlags.add(Objects.requireNonNull(flag, "flag"));
      return this;
    }

    public Builder withSimulatedNodes(int nodes) {
      if (nodes < 1) {
        throw new IllegalArgumentException("simulated nodes must be at least 1, was " + nodes);
      }
      this.simulatedNodes = nodes;
      return this;
    }

    /** The {@code simulated} profile's default StorageClass; {@code none} for none. */
    public Builder withSimulatedStorageClass(String name) {
      this.simulatedStorageClass = Objects.requireNonNull(name, "name");
      return this;
    }

    public Builder withPodStartDelay(Duration delay) {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("pod start delay must not be negative, was " + delay);
      }
      this.podStartDelay = delay;
      return this;
    }

    /** See {@link ControlPlaneOptions#reuse()}. */
    public Builder withReuse(boolean reuse) {
      this.reuse = reuse;
      return this;
    }

    public Builder withReuseIdleTimeout(Duration idle) {
      if (idle.isNegative() || idle.isZero()) {
        throw new IllegalArgumentException("reuse idle timeout must be positive, was " + idle);
      }
      this.reuseIdleTimeout = idle;
      return this;
    }

    /** See {@link ControlPlaneOptions#goCommand()}. */
    public Builder withGoCommand(String command) {
      this.goCommand = Objects.requireNonNull(command, "command");
      return this;
    }

    /** See {@link ControlPlaneOptions#k3sImage()}. */
    public Builder withK3sImage(String image) {
      this.k3sImage = Objects.requireNonNull(image, "image");
      return this;
    }

    /** See {@link ControlPlaneOptions#kindImage()}. */
    public Builder withKindImage(String image) {
      this.kindImage = Objects.requireNonNull(image, "image");
      return this;
    }

    /** See {@link ControlPlaneOptions#containerEtcdImage()}. */
    public Builder withContainerEtcdImage(String image) {
      this.containerEtcdImage = Objects.requireNonNull(image, "image");
      return this;
    }

    /** See {@link ControlPlaneOptions#containerApiServerImage()}. */
    public Builder withContainerApiServerImage(String image) {
      this.containerApiServerImage = Objects.requireNonNull(image, "image");
      return this;
    }

    /** See {@link ControlPlaneOptions#containerControllerManagerImage()}. */
    public Builder withContainerControllerManagerImage(String image) {
      this.containerControllerManagerImage = Objects.requireNonNull(image, "image");
      return this;
    }

    public Builder withProgress(Consumer<String> progress) {
      this.progress = Objects.requireNonNull(progress, "progress");
      return this;
    }

    public ControlPlaneOptions build() {
      return new ControlPlaneOptions(this);
    }
  }
}
