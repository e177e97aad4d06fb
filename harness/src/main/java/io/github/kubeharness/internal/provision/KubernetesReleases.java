package io.github.kubeharness.internal.provision;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns a version as a user writes it into one the provisioner can get: {@code 1.36} becomes the
 * newest {@code 1.36.x} among the Go module proxy's releases of {@code k8s.io/kubernetes} (what a
 * build can have) and the versions already in the cache — or, where Go cannot list them, the
 * envtest release index (what a download can have); {@code 1.36.3} is taken as is.
 *
 * <p>The proxy's list costs a {@code go list} (a second or two) and is kept in the cache for {@link
 * #LIST_MAX_AGE}, so test runs do not pay it each time; a patch released since shows up after that.
 * Without Go or proxy, the cache alone answers.
 */
public final class KubernetesReleases {

  static final Duration LIST_MAX_AGE = Duration.ofHours(24);
  static final String MODULE = "k8s.io/kubernetes";
  private static final Pattern FULL = Pattern.compile("\\d+\\.\\d+\\.\\d+");
  private static final Pattern MINOR = Pattern.compile("\\d+\\.\\d+");
  private static final Map<Path, List<String>> SERVED = new ConcurrentHashMap<>();
  private static final Map<String, List<String>> INDEXED = new ConcurrentHashMap<>();

  private final ControlPlaneOptions options;
  private final String go;

  public KubernetesReleases(ControlPlaneOptions options) {
    this(options, options.goCommand());
  }

  /** With {@code go} as the Go command (a test's missing one). */
  KubernetesReleases(ControlPlaneOptions options, String go) {
    this.options = options;
    this.go = go;
  }

  /**
   * The full version {@code asked} stands for.
   *
   * @throws KubeHarnessException naming what was looked at and the fix, when {@code asked} is not a
   *     version, or no release of its minor can be had
   */
  public String resolve(String asked) {
    String version = asked.trim().replaceFirst("^v", "");
    if (FULL.matcher(version).matches()) {
      return version;
    }
    if (!MINOR.matcher(version).matches()) {
      throw new KubeHarnessException(
          "Kubernetes version '"
              + asked
              + "' is neither MAJOR.MINOR (the newest patch of that minor, such as 1.36) nor"
              + " MAJOR.MINOR.PATCH (exactly that release, such as 1.36.3). Fix kubernetesVersions"
              + " (or kubeharness.kubernetes.versions).");
    }
    List<String> cached = cachedVersions();
    Optional<String> fromCache = newestOf(version, cached);
    List<String> served;
    try {
      served = servedVersions();
    } catch (KubeHarnessException e) {
      Optional<String> downloadable = newestOf(version, downloadableVersions());
      if (downloadable.isPresent()) {
        return Stream.of(fromCache, downloadable)
            .flatMap(Optional::stream)
            .max(Comparator.comparing(KubernetesReleases::patch))
            .orElseThrow();
      }
      return fromCache.orElseThrow(
          () ->
              new KubeHarnessException(
                  "Kubernetes "
                      + version
                      + " names a minor version, and none of its releases can be found: the"
                      + " cache "
                      + versionsRoot()
                      + " holds no "
                      + version
                      + ".x, and the Go module proxy's list could not be read ("
                      + e.getMessage().lines().findFirst().orElse("")
                      + "). Name a full version (such as "
                      + version
                      + ".0), or make Go and its GOPROXY available.",
                  e));
    }
    Optional<String> fromProxy = newestOf(version, served);
    return Stream.of(fromCache, fromProxy)
        .flatMap(Optional::stream)
        .max(Comparator.comparing(KubernetesReleases::patch))
        .orElseThrow(
            () ->
                new KubeHarnessException(
                    "Kubernetes "
                        + version
                        + ".x cannot be had: the Go module proxy serves no release of it (its"
                        + " newest: "
                        + newest(served).orElse("none")
                        + ") and the cache "
                        + versionsRoot()
                        + " holds none. Choose a served minor, or a full version you provide"
                        + " through KUBEBUILDER_ASSETS."));
  }

  /** The newest stable {@code minor.x} of {@code versions} (written with or without {@code v}). */
  static Optional<String> newestOf(String minor, List<String> versions) {
    return versions.stream()
        .map(v -> v.replaceFirst("^v", ""))
        .filter(v -> FULL.matcher(v).matches() && v.startsWith(minor + "."))
        .max(Comparator.comparing(KubernetesReleases::patch));
  }

  private static Optional<String> newest(List<String> versions) {
    return versions.stream()
        .map(v -> v.replaceFirst("^v", ""))
        .filter(v -> FULL.matcher(v).matches())
        .max(Comparator.comparing(KubernetesReleases::sortKey));
  }

  private static int patch(String version) {
    return Integer.parseInt(version.substring(version.lastIndexOf('.') + 1));
  }

  private static String sortKey(String version) {
    StringBuilder key = new StringBuilder();
    for (String part : version.split("\\.")) {
      key.append(String.format("%6s", part));
    }
    return key.toString();
  }

  /**
   * What the envtest release index can download, for a machine without Go: empty when offline or
   * when the index cannot be read (the proxy's list and the cache still answer).
   */
  private List<String> downloadableVersions() {
    if (options.offline()) {
      return List.of();
    }
    return INDEXED.computeIfAbsent(
        options.releaseIndex().toString(),
        index -> {
          try {
            return new ReleaseDownload(options.releaseIndex(), Platform.current(), line -> {})
                .versions();
          } catch (KubeHarnessException e) {
            return List.of();
          }
        });
  }

  /** Versions whose kube-apiserver is in the cache ({@code <cache>/k8s/<version>-<platform>}). */
  private List<String> cachedVersions() {
    String suffix = "-" + Platform.current();
    List<String> versions = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(versionsRoot())) {
      dirs.filter(d -> Files.isExecutable(d.resolve(Component.KUBE_APISERVER.fileName())))
          .map(d -> d.getFileName().toString())
          .filter(name -> name.endsWith(suffix))
          .forEach(name -> versions.add(name.substring(0, name.length() - suffix.length())));
    } catch (IOException e) {
      // no cache yet: nothing cached
    }
    return versions;
  }

  private Path versionsRoot() {
    return options.cacheDirectory().resolve("k8s");
  }

  /** The proxy's releases: from this JVM's memory, the cache file while fresh, else {@code go}. */
  private List<String> servedVersions() {
    Path file = versionsRoot().resolve("served-versions.txt");
    return SERVED.computeIfAbsent(file, this::readOrList);
  }

  private List<String> readOrList(Path file) {
    try {
      if (Files.isRegularFile(file)
          && Files.getLastModifiedTime(file)
              .toInstant()
              .isAfter(Instant.now().minus(LIST_MAX_AGE))) {
        return List.of(Files.readString(file).trim().split("\\s+"));
      }
    } catch (IOException e) {
      // unreadable: list again
    }
    options.progress().accept("listing the Kubernetes releases the Go module proxy serves ...");
    List<String> served =
        new SourceBuild(go, options.cacheDirectory().resolve("build"), options.progress())
            .listVersions(MODULE);
    try {
      Files.createDirectories(file.getParent());
      Path temp = Files.createTempFile(file.getParent(), ".served-", ".txt");
      Files.writeString(temp, String.join(" ", served) + "\n");
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // not kept: the next JVM lists again
    }
    return served;
  }
}
