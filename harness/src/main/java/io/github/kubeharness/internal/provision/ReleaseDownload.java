package io.github.kubeharness.internal.provision;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Settings;
import io.github.kubeharness.internal.process.RunDirectory;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.ProxySelector;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * Downloads controller-tools' envtest release archive of one Kubernetes version and installs the
 * binaries in it into a {@link BinaryCache}. The archive is found through the index that
 * setup-envtest and controller-runtime read ({@code envtest-releases.yaml}: {@code releases ->
 * v<version> -> envtest-v<version>-<os>-<arch>.tar.gz -> {hash: <sha512>, selfLink: <url>}}), so a
 * mirror of that index serves all three.
 */
final class ReleaseDownload {

  private static final long PROGRESS_INTERVAL_NANOS = Duration.ofSeconds(2).toNanos();
  private static final String ASSETS_FIX =
      " Otherwise set KUBEBUILDER_ASSETS to a directory holding etcd and kube-apiserver.";
  private static final String MIRROR = Settings.describe(Settings.RELEASE_INDEX_URL);

  private final URI index;
  private final Platform platform;
  private final Consumer<String> progress;
  private final HttpClient http;

  /** A download of the archives for {@code platform} listed in the YAML index at {@code index}. */
  ReleaseDownload(URI index, Platform platform, Consumer<String> progress) {
    this.index = index;
    this.platform = platform;
    this.progress = progress;
    // ProxySelector.getDefault() honours -Dhttps.proxyHost; without it HttpClient goes direct.
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(3))
            .followRedirects(HttpClient.Redirect.NORMAL)
            .proxy(ProxySelector.getDefault())
            .build();
  }

  /**
   * Downloads, verifies (SHA-512 from the index) and extracts the archive for {@code version} (e.g.
   * {@code 1.37.2}), installing each binary it contains into {@code cache}. Returns the components
   * installed; nothing is installed unless the archive is intact and holds etcd and kube-apiserver.
   *
   * @throws KubeHarnessException naming the URL, what was expected and found, and the fix
   */
  Set<Component> fetchInto(String version, BinaryCache cache) {
    String tag = version.startsWith("v") ? version : "v" + version;
    String name = "envtest-" + tag + "-" + platform + ".tar.gz";
    Map<?, ?> entry = findArchive(readIndex(), tag, name);
    if (entry.get("hash") == null || entry.get("selfLink") == null) {
      throw failure(
          null,
          "The envtest release index %s lists %s without hash or selfLink (found"
              + " %s). Fix the index, or point %s at a complete one.",
          index,
          name,
          entry,
          MIRROR);
    }
    String expected = entry.get("hash").toString();
    // resolve() keeps absolute links and lets a mirror's index use links relative to itself.
    URI url = index.resolve(entry.get("selfLink").toString());
    Path work = createTempDirectory();
    try {
      Path archive = work.resolve(name);
      download(url, name, archive);
      String actual = BinaryCache.digest(archive, "SHA-512");
      if (!actual.equalsIgnoreCase(expected)) {
        throw failure(
            null,
            "Checksum mismatch for %s from %s: the index %s expects SHA-512 %s, the download has"
                + " %s. Retry; if it persists, the server or a proxy serves another file than the"
                + " index describes: fix the mirror."
                + ASSETS_FIX,
            name,
            url,
            index,
            expected,
            actual);
      }
      Map<Component, Path> found = findBinaries(untar(archive, work.resolve("x"), name, url));
      for (Component required : List.of(Component.ETCD, Component.KUBE_APISERVER)) {
        if (!found.containsKey(required)) {
          throw failure(
              null,
              "The envtest archive %s from %s has no %s (binaries found: %s). Point %s at an"
                  + " index of genuine envtest archives."
                  + ASSETS_FIX,
              name,
              url,
              required.fileName(),
              found.keySet().stream().map(Component::fileName).toList(),
              MIRROR);
        }
      }
      found.forEach(cache::install);
      return EnumSet.copyOf(found.keySet());
    } finally {
      // Best effort: a leftover temp directory must not hide the download's own outcome.
      RunDirectory.deleteRecursively(work);
    }
  }

  /**
   * The versions the index has an archive of for this platform ({@code v1.36.3}, ...): what a
   * download can get.
   */
  List<String> versions() {
    String suffix = "-" + platform + ".tar.gz";
    return readIndex().entrySet().stream()
        .filter(
            release ->
                release.getValue() instanceof Map<?, ?> archives
                    && archives.keySet().stream().anyMatch(n -> String.valueOf(n).endsWith(suffix)))
        .map(release -> String.valueOf(release.getKey()))
        .toList();
  }

  private Map<?, ?> readIndex() {
    HttpRequest request = HttpRequest.newBuilder(index).timeout(Duration.ofSeconds(10)).build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw failure(
          e,
          "The envtest release index %s could not be reached (%s). Without network"
              + " access, set %s=true (or %s=true) to skip downloads, or point %s (or %s) at a"
              + " mirror."
              + ASSETS_FIX,
          index,
          reason(e),
          Settings.OFFLINE,
          Settings.environmentVariable(Settings.OFFLINE),
          Settings.RELEASE_INDEX_URL,
          Settings.environmentVariable(Settings.RELEASE_INDEX_URL));
    } catch (InterruptedException e) {
      throw interrupted(index, e);
    }
    if (response.statusCode() != 200) {
      throw failure(
          null,
          "The envtest release index %s answered HTTP %d, expected 200. Check the"
              + " URL, or point %s at a mirror."
              + ASSETS_FIX,
          index,
          response.statusCode(),
          MIRROR);
    }
    try {
      Map<?, ?> document =
          new ObjectMapper(new YAMLFactory()).readValue(response.body(), Map.class);
      if (document.get("releases") instanceof Map<?, ?> releases) {
        return releases;
      }
    } catch (IOException | RuntimeException e) {
      // Not YAML at all gets the same message and fix as YAML of the wrong shape.
    }
    throw failure(
        null,
        "The document at %s is not an envtest release index: expected YAML with a"
            + " top-level `releases` map, as in controller-tools' envtest-releases.yaml. Check the"
            + " URL, or point %s at such an index."
            + ASSETS_FIX,
        index,
        MIRROR);
  }

  private Map<?, ?> findArchive(Map<?, ?> releases, String tag, String name) {
    if (!(releases.get(tag) instanceof Map<?, ?> archives)) {
      List<String> newest =
          releases.keySet().stream()
              .map(String::valueOf)
              .sorted(Comparator.comparing(ReleaseDownload::versionKey).reversed())
              .limit(10)
              .toList();
      throw failure(
          null,
          "Kubernetes %s is not in the envtest release index %s. Newest listed"
              + " (%d of %d): %s. Choose one with %s."
              + ASSETS_FIX,
          tag,
          index,
          newest.size(),
          releases.size(),
          String.join(", ", newest),
          Settings.describe(Settings.KUBERNETES_VERSION));
    }
    if (!(archives.get(name) instanceof Map<?, ?> archive)) {
      throw failure(
          null,
          "The envtest release index %s has no %s; %s is built only as %s. Choose"
              + " another version with %s, or set KUBEBUILDER_ASSETS to binaries built for %s.",
          index,
          name,
          tag,
          archives.keySet(),
          Settings.describe(Settings.KUBERNETES_VERSION),
          platform);
    }
    return archive;
  }

  private void download(URI url, String name, Path target) {
    // The request timeout bounds the wait for the response head only, not the body transfer.
    HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build();
    try {
      HttpResponse<InputStream> response =
          http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = response.body();
          OutputStream out = Files.newOutputStream(target)) {
        if (response.statusCode() != 200) {
          throw failure(
              null,
              "Downloading %s from %s answered HTTP %d, expected 200: the index %s points at"
                  + " an archive that is not there. Fix the mirror, or point %s at another index."
                  + ASSETS_FIX,
              name,
              url,
              response.statusCode(),
              index,
              MIRROR);
        }
        String total = megabytes(response.headers().firstValueAsLong("Content-Length").orElse(-1));
        progress.accept("downloading " + name + " from " + url + " (" + total + ")");
        long copied = 0;
        long nextReport = System.nanoTime() + PROGRESS_INTERVAL_NANOS;
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = in.read(buffer)) > 0; ) {
          out.write(buffer, 0, n);
          copied += n;
          if (System.nanoTime() - nextReport >= 0) {
            nextReport = System.nanoTime() + PROGRESS_INTERVAL_NANOS;
            progress.accept("downloading %s (%s of %s)".formatted(name, megabytes(copied), total));
          }
        }
      }
    } catch (IOException e) {
      throw failure(
          e,
          "Downloading %s from %s failed (%s). Retry, or point %s at a reachable"
              + " mirror."
              + ASSETS_FIX,
          name,
          url,
          reason(e),
          MIRROR);
    } catch (InterruptedException e) {
      throw interrupted(url, e);
    }
  }

  // Regular files only (links are skipped so none can point outside), each checked to land
  // inside `into`; executables keep their execute bit.
  private static Path untar(Path archive, Path into, String name, URI url) {
    try (TarArchiveInputStream tar =
        new TarArchiveInputStream(
            new GzipCompressorInputStream(
                new BufferedInputStream(Files.newInputStream(archive))))) {
      Files.createDirectories(into);
      for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
        if (!entry.isFile()) {
          continue;
        }
        Path target = into.resolve(entry.getName()).normalize();
        if (!target.startsWith(into)) {
          throw new IOException("entry " + entry.getName() + " points outside the archive");
        }
        Files.createDirectories(target.getParent());
        Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
        if ((entry.getMode() & 0100) != 0) {
          target.toFile().setExecutable(true);
        }
      }
      return into;
    } catch (IOException e) {
      throw failure(
          e,
          "The envtest archive %s from %s is truncated or corrupt (%s). Retry; if it persists, fix"
              + " the archive on the server."
              + ASSETS_FIX,
          name,
          url,
          e.getMessage());
    }
  }

  /** Binaries by file name wherever they sit; links are skipped so none can point outside. */
  private static Map<Component, Path> findBinaries(Path root) {
    Map<Component, Path> found = new EnumMap<>(Component.class);
    try (Stream<Path> files = Files.walk(root)) {
      for (Path path : (Iterable<Path>) files.sorted()::iterator) {
        for (Component component : Component.values()) {
          if (path.getFileName().toString().equals(component.fileName())
              && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            found.putIfAbsent(component, path);
          }
        }
      }
    } catch (IOException e) {
      throw failure(e, "Cannot read the extracted envtest archive in %s (%s).", root, e);
    }
    return found;
  }

  private static Path createTempDirectory() {
    try {
      return Files.createTempDirectory("kube-harness-envtest-");
    } catch (IOException e) {
      throw failure(
          e,
          "Cannot create a temporary directory for the envtest download (%s). Make"
              + " java.io.tmpdir (%s) writable.",
          e,
          System.getProperty("java.io.tmpdir"));
    }
  }

  /** Plain words for what HttpClient reports as a bare {@code ConnectException} with no message. */
  private static String reason(IOException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof UnresolvedAddressException || cause instanceof UnknownHostException) {
        return "unknown host";
      }
    }
    if (e instanceof HttpConnectTimeoutException) {
      return "no connection within 3 s";
    }
    return e instanceof ConnectException ? "connection refused or no route" : e.toString();
  }

  private static KubeHarnessException interrupted(URI url, InterruptedException e) {
    Thread.currentThread().interrupt();
    return failure(e, "Interrupted while downloading from %s.", url);
  }

  private static KubeHarnessException failure(Throwable cause, String format, Object... args) {
    return new KubeHarnessException(format.formatted(args), cause);
  }

  private static String megabytes(long bytes) {
    return bytes < 0 ? "size unknown" : (bytes + (1 << 19)) / (1 << 20) + " MB";
  }

  /**
   * Sort key of an index version such as {@code v1.35.0-alpha.3}: numeric parts padded to equal
   * width, and a pre-release before its release (suffix "0..." sorts before the release's "1").
   */
  private static String versionKey(String version) {
    String[] releaseAndPre = version.replaceFirst("^v", "").split("-", 2);
    StringBuilder key = new StringBuilder();
    for (String part : releaseAndPre[0].split("\\.")) {
      key.append(String.format("%10s.", part.replaceAll("\\D", "")));
    }
    return key.append(releaseAndPre.length > 1 ? "0" + releaseAndPre[1] : "1").toString();
  }
}
