package io.github.kubeharness;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How to obtain binaries for, and start, a control plane. Immutable; build one with {@link
 * #builder()}. Every unset option is filled in {@link Builder#build()}, once, from its {@link
 * Setting} in {@link Settings#ALL} (system property, then environment variable, then the default):
 * the code below the entry points reads these options, never the settings.
 *
 * <p>What every backend shares is here; what one backend alone is set with is its {@link
 * BackendOptions} record ({@link #backendOptions()}), so kind's node image cannot be set on {@code
 * local}. A profile or {@code reuse} the backend cannot do is refused by {@link Builder#build()},
 * naming {@link #origin()}, before anything starts.
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
  private final boolean auditLog;
  private final List<String> extraApiServerFlags;
  private final boolean reuse;
  private final String goCommand;
  private final Consumer<String> progress;
  private final String origin;

  private ControlPlaneOptions(Builder b) {
    SettingSource settings = new SettingSource(b.given);
    this.origin = b.origin;
    this.backend =
        b.backendOptions != null
            ? b.backendOptions
            : backendOptions(
                settings.resolve(setting(Settings.BACKEND, Backend.class), b.backend), settings);
    Backend named = backend.backend();
    // Unasked, the profile is the backend's default (standard on a whole cluster), so that a
    // backend never reports a profile it does not run; asked, it is checked below.
    Optional<Profile> askedProfile =
        b.profile != null
            ? Optional.of(b.profile)
            : b.resolved
                ? Optional.empty()
                : settings.read(setting(Settings.PROFILE, Profile.class));
    this.profileAsked = askedProfile.isPresent();
    this.profile = askedProfile.orElse(named.defaultProfile());
    this.kubernetesVersion =
        normalizeVersion(
            settings.resolve(
                setting(Settings.KUBERNETES_VERSION, String.class), b.kubernetesVersion));
    this.startTimeout =
        settings.resolve(setting(Settings.START_TIMEOUT_SECONDS, Duration.class), b.startTimeout);
    this.offline = settings.resolve(setting(Settings.OFFLINE, Boolean.class), b.offline);
    this.cacheDirectory =
        settings.resolve(setting(Settings.CACHE_DIR, Path.class), b.cacheDirectory);
    this.releaseIndex =
        settings.resolve(setting(Settings.RELEASE_INDEX_URL, URI.class), b.releaseIndex);
    // envtest's own variable, honoured as envtest does: a fact of the machine, not our setting.
    this.assetsDirectory =
        b.assetsDirectory != null || b.resolved
            ? b.assetsDirectory
            : Optional.ofNullable(System.getenv("KUBEBUILDER_ASSETS"))
                .filter(s -> !s.isBlank())
                .map(Path::of)
                .orElse(null);
    this.goCommand = settings.resolve(setting(Settings.GO, String.class), b.goCommand);
    this.auditLog = b.auditLog;
    this.extraApiServerFlags = List.copyOf(b.extraApiServerFlags);
    this.reuse =
        b.reuse != null
            ? b.reuse
            : settings
                .read(setting(Settings.REUSE, Boolean.class))
                .orElseGet(() -> named == Backend.KIND && DeprecatedKindReuse.asked());
    this.progress =
        b.progress != null ? b.progress : line -> System.err.println("[kube-harness] " + line);
    // What the backend cannot do is refused here, once, before anything starts.
    // A backend nobody chose in code came from a setting: the refusal names it, since a
    // KUBE_HARNESS_BACKEND exported in the shell is easily forgotten.
    String where =
        b.backendOptions != null || b.backend != null
            ? origin
            : settings
                .setOutside(setting(Settings.BACKEND, Backend.class))
                .map(set -> origin + " (backend from " + set + ")")
                .orElse(origin);
    if (profileAsked) {
      named.requireProfile(profile, where);
    }
    if (reuse) {
      backend.require(Backend.Feature.REUSE, where);
    }
  }

  private static <T> Setting<T> setting(String property, Class<T> type) {
    return Settings.entry(property, type);
  }

  // The one place a backend's settings are read into its record.
  static BackendOptions backendOptions(Backend backend, SettingSource settings) {
    return switch (backend) {
      case AUTO -> BackendOptions.Auto.from(settings);
      case LOCAL -> BackendOptions.Local.from(settings);
      case CONTAINER -> BackendOptions.Container.from(settings);
      case K3S -> BackendOptions.K3s.from(settings);
      case KIND -> BackendOptions.Kind.from(settings);
      case EXISTING -> new BackendOptions.Existing();
    };
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
    return backend.backend();
  }

  /**
   * The options of {@link #backend()} alone (kind's node image, the container backend's network and
   * images, ...). Default: the backend's settings.
   */
  public BackendOptions backendOptions() {
    return backend;
  }

  /**
   * {@link #backendOptions()} as {@code type}, for the code that runs that backend.
   *
   * @throws IllegalStateException when these options are for another backend
   */
  public <T extends BackendOptions> T backendOptions(Class<T> type) {
    if (!type.isInstance(backend)) {
      throw new IllegalStateException(
          "options for the " + backend().settingValue() + " backend, not " + type.getSimpleName());
    }
    return type.cast(backend);
  }

  /**
   * Who asked for these options, as messages name the culprit ({@code @ControllerTest on MyTest},
   * {@code kube-harness up}). Default: {@code The control plane options}.
   */
  public String origin() {
    return origin;
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

  /**
   * Keep the control plane for the next JVM, and attach to one kept by an earlier JVM: the {@code
   * local} backend's processes, the {@code kind} backend's cluster. One switch for every backend
   * that can keep one ({@link Backend.Feature#REUSE}); on the others it is refused when the options
   * are built. Default: {@link Settings#REUSE}, false (on kind also the deprecated {@code
   * kubeharness.kind.reuse}).
   */
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

  /** A builder holding these options, to change some. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.resolved = true;
    b.backendOptions = backend;
    b.profile = profileAsked ? profile : null;
    b.kubernetesVersion = kubernetesVersion;
    b.startTimeout = startTimeout;
    b.offline = offline;
    b.cacheDirectory = cacheDirectory;
    b.releaseIndex = releaseIndex;
    b.assetsDirectory = assetsDirectory;
    b.auditLog = auditLog;
    b.extraApiServerFlags.addAll(extraApiServerFlags);
    b.reuse = reuse;
    b.goCommand = goCommand;
    b.progress = progress;
    b.origin = origin;
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
    private BackendOptions backendOptions;
    private Profile profile;
    private String kubernetesVersion;
    private Duration startTimeout;
    private Boolean offline;
    private Path cacheDirectory;
    private URI releaseIndex;
    private Path assetsDirectory;
    private boolean auditLog;
    private final List<String> extraApiServerFlags = new ArrayList<>();
    private Boolean reuse;
    private String goCommand;
    private Consumer<String> progress;
    private String origin = "The control plane options";
    private final Map<String, SettingSource.Given> given = new LinkedHashMap<>();
    // Made by toBuilder(): every setting was read once already.
    private boolean resolved;

    private Builder() {}

    /** The backend, with its own options from its settings ({@link BackendOptions#of}). */
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
     * A setting's value as written in {@code source} (a CLI option: {@code --profile}): it wins
     * over the setting's system property and environment variable, and loses to a {@code withX}
     * call. A value that cannot be read fails {@link #build()}, naming {@code source}.
     *
     * @param property a setting of {@link Settings#ALL}, e.g. {@link Settings#PROFILE}
     * @throws IllegalArgumentException when {@code property} is no setting
     */
    public Builder withSetting(String property, String value, String source) {
      Settings.ALL.stream()
          .filter(s -> s.property().equals(property))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no setting " + property));
      given.put(
          property,
          new SettingSource.Given(
              Objects.requireNonNull(value, "value"), Objects.requireNonNull(source, "source")));
      return this;
    }

    public ControlPlaneOptions build() {
      return new ControlPlaneOptions(this);
    }
  }
}
