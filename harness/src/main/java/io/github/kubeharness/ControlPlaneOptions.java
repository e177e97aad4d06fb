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
 * #builder()}. Every unset option is filled in {@link Builder#build()} from {@link Settings} and
 * the defaults documented on each getter.
 */
public final class ControlPlaneOptions {

  /** controller-tools' index of envtest release archives. */
  public static final URI DEFAULT_RELEASE_INDEX =
      URI.create(
          "https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml");

  private final Backend backend;
  private final NetworkMode network;
  private final Profile profile;
  private final String kubernetesVersion;
  private final Duration startTimeout;
  private final boolean offline;
  private final Path cacheDirectory;
  private final URI releaseIndex;
  private final Path assetsDirectory;
  private final boolean auditLog;
  private final List<String> extraApiServerFlags;
  private final int simulatedNodes;
  private final Duration podStartDelay;
  private final boolean reuse;
  private final Duration reuseIdleTimeout;
  private final Consumer<String> progress;

  private ControlPlaneOptions(Builder b) {
    this.backend =
        b.backend != null
            ? b.backend
            : Settings.enumValue(Settings.BACKEND, Backend.class).orElse(Backend.AUTO);
    this.network =
        b.network != null
            ? b.network
            : Settings.enumValue(Settings.NETWORK, NetworkMode.class).orElse(NetworkMode.BRIDGE);
    this.profile =
        b.profile != null
            ? b.profile
            : Settings.enumValue(Settings.PROFILE, Profile.class).orElse(Profile.MINIMAL);
    this.kubernetesVersion =
        normalizeVersion(
            b.kubernetesVersion != null
                ? b.kubernetesVersion
                : Settings.get(Settings.KUBERNETES_VERSION).orElse(Versions.KUBERNETES));
    this.startTimeout =
        b.startTimeout != null
            ? b.startTimeout
            : Settings.seconds(Settings.START_TIMEOUT_SECONDS).orElse(Duration.ofSeconds(60));
    this.offline =
        b.offline != null ? b.offline : Settings.booleanValue(Settings.OFFLINE).orElse(false);
    this.cacheDirectory =
        b.cacheDirectory != null
            ? b.cacheDirectory
            : Settings.get(Settings.CACHE_DIR)
                .map(Path::of)
                .orElseGet(ControlPlaneOptions::defaultCache);
    this.releaseIndex =
        b.releaseIndex != null
            ? b.releaseIndex
            : Settings.get(Settings.RELEASE_INDEX_URL)
                .map(URI::create)
                .orElse(DEFAULT_RELEASE_INDEX);
    this.assetsDirectory =
        b.assetsDirectory != null
            ? b.assetsDirectory
            : Optional.ofNullable(System.getenv("KUBEBUILDER_ASSETS"))
                .filter(s -> !s.isBlank())
                .map(Path::of)
                .orElse(null);
    this.auditLog = b.auditLog;
    this.extraApiServerFlags = List.copyOf(b.extraApiServerFlags);
    this.simulatedNodes =
        b.simulatedNodes != null
            ? b.simulatedNodes
            : Settings.positiveInt(Settings.SIMULATED_NODES).orElse(1);
    this.podStartDelay =
        b.podStartDelay != null
            ? b.podStartDelay
            : Settings.seconds(Settings.SIMULATED_POD_START_SECONDS).orElse(Duration.ofMillis(300));
    this.reuse = b.reuse != null ? b.reuse : Settings.booleanValue(Settings.REUSE).orElse(false);
    this.reuseIdleTimeout =
        b.reuseIdleTimeout != null
            ? b.reuseIdleTimeout
            : Settings.positiveInt(Settings.REUSE_IDLE_MINUTES)
                .map(Duration::ofMinutes)
                .orElse(Duration.ofMinutes(10));
    this.progress =
        b.progress != null ? b.progress : line -> System.err.println("[kube-harness] " + line);
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

  /** Components to run. Default: {@link Settings#PROFILE}, else {@link Profile#MINIMAL}. */
  public Profile profile() {
    return profile;
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
   * Scheduled to Running and Ready in the {@code simulated} profile. Default: {@link
   * Settings#SIMULATED_POD_START_SECONDS}, 0.3 s.
   */
  public Duration podStartDelay() {
    return podStartDelay;
  }

  /**
   * Keep the {@code local} control plane for the next JVM, and attach to one kept by an earlier
   * JVM. Default: {@link Settings#REUSE}, false.
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

  /** Receives progress lines of long work (provisioning). Default: standard error. */
  public Consumer<String> progress() {
    return progress;
  }

  /** A builder holding these options, to change some. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.backend = backend;
    b.network = network;
    b.profile = profile;
    b.kubernetesVersion = kubernetesVersion;
    b.startTimeout = startTimeout;
    b.offline = offline;
    b.cacheDirectory = cacheDirectory;
    b.releaseIndex = releaseIndex;
    b.assetsDirectory = assetsDirectory;
    b.auditLog = auditLog;
    b.extraApiServerFlags.addAll(extraApiServerFlags);
    b.simulatedNodes = simulatedNodes;
    b.podStartDelay = podStartDelay;
    b.reuse = reuse;
    b.reuseIdleTimeout = reuseIdleTimeout;
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
              + Settings.describe(Settings.KUBERNETES_VERSION)
              + " or the kubernetesVersion option.");
    }
    return v;
  }

  private static Path defaultCache() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("kube-harness");
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
    private Duration podStartDelay;
    private Boolean reuse;
    private Duration reuseIdleTimeout;
    private Consumer<String> progress;

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

    public Builder withProgress(Consumer<String> progress) {
      this.progress = Objects.requireNonNull(progress, "progress");
      return this;
    }

    public ControlPlaneOptions build() {
      return new ControlPlaneOptions(this);
    }
  }
}
