package io.github.kubeharness;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * How to obtain binaries for, and start, a control plane. An immutable value that reads nothing:
 * build one with {@link #builder()}; what it was not told is the documented default until the
 * settings registry fills it in where a control plane is made ({@link
 * #resolve(ControlPlaneDefaults)}). What the builder was told wins over the settings.
 *
 * <p>What every backend shares is here; what one backend alone is set with is its {@link
 * BackendOptions} record ({@link #backendOptions()}), so kind's node image cannot be set on {@code
 * local}. A profile or {@code reuse} the backend cannot do is refused by {@link Builder#build()}
 * and {@link #resolve}, naming {@link #origin()}, before anything starts.
 */
public final class ControlPlaneOptions {

  /** controller-tools' index of envtest release archives. */
  public static final URI DEFAULT_RELEASE_INDEX =
      URI.create(
          "https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml");

  private final BackendOptions backend;
  private final Profile profile;
  private final boolean profileAsked;
  private final String kubernetesVersion;
  private final Duration startTimeout;
  private final boolean offline;
  private final Path cacheDirectory;
  private final URI releaseIndex;
  private final Path assetsDirectory;
  private final Map<String, Path> binaries;
  private final boolean auditLog;
  private final List<String> extraApiServerFlags;
  private final boolean reuse;
  private final String goCommand;
  private final Consumer<String> progress;
  private final String origin;
  // What the builder was told, and where the rest came from: for resolve and toBuilder.
  private final Builder asked;
  private final ControlPlaneDefaults defaults;

  /** How long a start may take, unless told or set otherwise. */
  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);

  /** The Go command's default: {@code go} from the PATH. */
  public static final String DEFAULT_GO_COMMAND = "go";

  private ControlPlaneOptions(Builder b, ControlPlaneDefaults d) {
    this.asked = b.copy();
    this.defaults = d;
    this.origin = b.origin;
    Backend chosen = b.backend != null ? b.backend : d.backend().orElse(Backend.AUTO);
    this.backend =
        b.backendOptions != null ? d.complete(b.backendOptions) : d.backendOptions(chosen);
    Backend named = backend.backend();
    // Unasked, the profile is the backend's default (standard on a whole cluster), so that a
    // backend never reports a profile it does not run; asked, it is checked below.
    Optional<Profile> askedProfile = Optional.ofNullable(b.profile).or(d::profile);
    this.profileAsked = askedProfile.isPresent();
    this.profile = askedProfile.orElse(named.defaultProfile());
    this.kubernetesVersion =
        Versions.normalize(
            b.kubernetesVersion != null
                ? b.kubernetesVersion
                : d.kubernetesVersion().orElse(Versions.KUBERNETES));
    this.startTimeout = or(b.startTimeout, d.startTimeout(), DEFAULT_START_TIMEOUT);
    this.offline = or(b.offline, d.offline(), false);
    this.cacheDirectory =
        b.cacheDirectory != null
            ? b.cacheDirectory
            : d.cacheDirectory()
                .orElseGet(
                    () -> Path.of(System.getProperty("user.home"), ".cache", "kube-harness"));
    this.releaseIndex = or(b.releaseIndex, d.releaseIndex(), DEFAULT_RELEASE_INDEX);
    this.assetsDirectory =
        b.assetsDirectory != null ? b.assetsDirectory : d.assetsDirectory().orElse(null);
    this.goCommand = or(b.goCommand, d.goCommand(), DEFAULT_GO_COMMAND);
    Map<String, Path> files = new TreeMap<>(d.binaries());
    files.putAll(b.binaries);
    this.binaries = Collections.unmodifiableMap(files);
    this.auditLog = b.auditLog;
    this.extraApiServerFlags = List.copyOf(b.extraApiServerFlags);
    this.reuse = or(b.reuse, d.reuse(named), false);
    this.progress =
        b.progress != null ? b.progress : line -> System.err.println("[kube-harness] " + line);
    // What the backend cannot do is refused here, once, before anything starts.
    // A backend nobody chose in code came from a setting: the refusal names it, since a
    // KUBE_HARNESS_BACKEND exported in the shell is easily forgotten.
    String where =
        b.backendOptions != null || b.backend != null
            ? origin
            : d.backendSetAt().map(set -> origin + " (backend from " + set + ")").orElse(origin);
    if (profileAsked) {
      named.requireProfile(profile, where);
    }
    if (reuse) {
      backend.require(Backend.Feature.REUSE, where);
    }
  }

  private static <T> T or(T told, Optional<T> set, T fallback) {
    return told != null ? told : set.orElse(fallback);
  }

  /**
   * These options again, what the builder was not told taken from {@code d}; resolved options stay
   * as they are (resolved once, where they enter: a door that resolves again must not undo that).
   */
  public ControlPlaneOptions resolve(ControlPlaneDefaults d) {
    Objects.requireNonNull(d, "defaults");
    return defaults != ControlPlaneDefaults.NONE ? this : new ControlPlaneOptions(asked, d);
  }

  /** A builder with nothing set: every option takes its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** Options with every documented default (the settings come in where a control plane is made). */
  public static ControlPlaneOptions defaults() {
    return builder().build();
  }

  /** Where the control plane comes from. Default: {@link Settings#BACKEND}, else auto. */
  public Backend backend() {
    return backend.backend();
  }

  /** The options of {@link #backend()} alone (kind's node image, ...). Default: its settings. */
  public BackendOptions backendOptions() {
    return backend;
  }

  /** {@link #backendOptions()} as {@code type}; {@link IllegalStateException} if not that. */
  public <T extends BackendOptions> T backendOptions(Class<T> type) {
    if (!type.isInstance(backend)) {
      throw new IllegalStateException(
          "options for the " + backend().settingValue() + " backend, not " + type.getSimpleName());
    }
    return type.cast(backend);
  }

  /** Who asked for these options, as messages name the culprit: {@code kube-harness up}. */
  public String origin() {
    return origin;
  }

  /**
   * Components to run. Default: {@link Settings#PROFILE}, else {@link Backend#defaultProfile()}.
   */
  public Profile profile() {
    return profile;
  }

  /** Whether the profile was asked (builder, annotation or setting), not the backend's default. */
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

  /** Download and pull nothing (docs/configuration.md says what). Default false. */
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

  /**
   * Files of single binaries by name ({@code kube-apiserver}), found before {@link
   * #assetsDirectory()} and the cache. Default: envtest's {@code TEST_ASSET_<NAME>} variables.
   */
  public Map<String, Path> binaries() {
    return binaries;
  }

  /** Write the apiserver audit log (every request) into the run directory. Default false. */
  public boolean auditLog() {
    return auditLog;
  }

  /** Extra {@code --flag=value} arguments for kube-apiserver, last wins. Default none. */
  public List<String> extraApiServerFlags() {
    return extraApiServerFlags;
  }

  /** Keep it for the next JVMs, attach to a kept one. Default {@link Settings#REUSE}, false. */
  public boolean reuse() {
    return reuse;
  }

  /** The Go command that builds missing binaries. Default: {@link Settings#GO}, {@code go}. */
  public String goCommand() {
    return goCommand;
  }

  /** Receives progress lines of long work (provisioning). Default: standard error. */
  public Consumer<String> progress() {
    return progress;
  }

  /** A builder holding these options, to change some (unresolved: what they were told). */
  public Builder toBuilder() {
    if (defaults == ControlPlaneDefaults.NONE) {
      return asked.copy();
    }
    Builder b = new Builder();
    b.backendOptions = backend;
    b.profile = profileAsked ? profile : null;
    b.kubernetesVersion = kubernetesVersion;
    b.startTimeout = startTimeout;
    b.offline = offline;
    b.cacheDirectory = cacheDirectory;
    b.releaseIndex = releaseIndex;
    b.assetsDirectory = assetsDirectory;
    b.binaries.putAll(binaries);
    b.auditLog = auditLog;
    b.extraApiServerFlags.addAll(extraApiServerFlags);
    b.reuse = reuse;
    b.goCommand = goCommand;
    b.progress = progress;
    b.origin = origin;
    return b;
  }

  /** Builds {@link ControlPlaneOptions}; unset fields take their defaults. */
  public static final class Builder {
    private Backend backend;
    private BackendOptions backendOptions;
    private Profile profile;
    private String kubernetesVersion;
    private Duration startTimeout;
    private Boolean offline;
    private Path cacheDirectory;
    private URI releaseIndex;
    private Path assetsDirectory;
    private final Map<String, Path> binaries = new TreeMap<>();
    private boolean auditLog;
    private final List<String> extraApiServerFlags = new ArrayList<>();
    private Boolean reuse;
    private String goCommand;
    private Consumer<String> progress;
    private String origin = "The control plane options";

    private Builder() {}

    /** The backend, with its own options from its settings where a control plane is made. */
    public Builder withBackend(Backend backend) {
      this.backend = Objects.requireNonNull(backend, "backend");
      this.backendOptions = null;
      return this;
    }

    /** The backend and its own options: {@code withBackend(BackendOptions.kind().withImage(i))}. */
    public Builder withBackend(BackendOptions options) {
      this.backendOptions = Objects.requireNonNull(options, "options");
      this.backend = null;
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

    /** See {@link ControlPlaneOptions#binaries()}: the binary {@code name} is {@code file}. */
    public Builder withBinary(String name, Path file) {
      binaries.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(file, "file"));
      return this;
    }

    /** See {@link ControlPlaneOptions#auditLog()}. */
    public Builder withAuditLog(boolean enabled) {
      this.auditLog = enabled;
      return this;
    }

    /** See {@link ControlPlaneOptions#extraApiServerFlags()}. */
    public Builder withExtraApiServerFlag(String flag) {
      this.extraApiServerFlags.add(Objects.requireNonNull(flag, "flag"));
      return this;
    }

    /** See {@link ControlPlaneOptions#reuse()}. */
    public Builder withReuse(boolean reuse) {
      this.reuse = reuse;
      return this;
    }

    /** See {@link ControlPlaneOptions#goCommand()}. */
    public Builder withGoCommand(String command) {
      this.goCommand = Objects.requireNonNull(command, "command");
      return this;
    }

    public Builder withProgress(Consumer<String> progress) {
      this.progress = Objects.requireNonNull(progress, "progress");
      return this;
    }

    /** See {@link ControlPlaneOptions#origin()}. */
    public Builder withOrigin(String origin) {
      this.origin = Objects.requireNonNull(origin, "origin");
      return this;
    }

    /**
     * The options: what this builder was not told takes its documented default ({@link
     * ControlPlaneDefaults#NONE}); the settings come in where a control plane is made.
     */
    public ControlPlaneOptions build() {
      return new ControlPlaneOptions(this, ControlPlaneDefaults.NONE);
    }

    // A copy, so that later calls on this builder do not change options built from it.
    private Builder copy() {
      Builder b = new Builder();
      b.backend = backend;
      b.backendOptions = backendOptions;
      b.profile = profile;
      b.kubernetesVersion = kubernetesVersion;
      b.startTimeout = startTimeout;
      b.offline = offline;
      b.cacheDirectory = cacheDirectory;
      b.releaseIndex = releaseIndex;
      b.assetsDirectory = assetsDirectory;
      b.binaries.putAll(binaries);
      b.auditLog = auditLog;
      b.extraApiServerFlags.addAll(extraApiServerFlags);
      b.reuse = reuse;
      b.goCommand = goCommand;
      b.progress = progress;
      b.origin = origin;
      return b;
    }
  }
}
