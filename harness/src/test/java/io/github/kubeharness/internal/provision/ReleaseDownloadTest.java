package io.github.kubeharness.internal.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ReleaseDownload} against a loopback HTTP server serving a fixture index and archive. */
class ReleaseDownloadTest {

  private static final String VERSION = "1.37.2";
  private static final Platform PLATFORM = new Platform("linux", "amd64");
  private static final String ARCHIVE = "envtest-v1.37.2-linux-amd64.tar.gz";
  private static final String ARCHIVE_PATH = "/releases/download/envtest-v1.37.2/" + ARCHIVE;

  @TempDir Path cacheRoot;
  @TempDir Path fixtures;

  private final List<String> progress = new ArrayList<>();
  private FixtureServer server;
  private BinaryCache cache;

  @BeforeEach
  void startServer() throws IOException {
    server = new FixtureServer();
    cache = new BinaryCache(cacheRoot, VERSION, PLATFORM);
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void installsTheBinariesOfAGoodArchive() throws Exception {
    byte[] archive = archive("etcd", "kube-apiserver", "kubectl");
    serve(archive, sha512(archive));

    assertThat(download().fetchInto(VERSION, cache))
        .containsExactlyInAnyOrder(Component.ETCD, Component.KUBE_APISERVER, Component.KUBECTL);

    for (String name : List.of("etcd", "kube-apiserver", "kubectl")) {
      Path installed = cache.directory().resolve(name);
      assertThat(installed).isExecutable().hasContent(script(name));
    }
    assertThat(cache.find(Component.KUBE_CONTROLLER_MANAGER)).isEmpty();
    assertThat(progress).anySatisfy(line -> assertThat(line).contains("downloading " + ARCHIVE));
  }

  @Test
  void rejectsAnArchiveWhoseChecksumDiffersFromTheIndex() throws Exception {
    byte[] archive = archive("etcd", "kube-apiserver", "kubectl");
    serve(archive, "ab".repeat(64));

    assertThatThrownBy(() -> download().fetchInto(VERSION, cache))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("Checksum mismatch")
        .hasMessageContaining("ab".repeat(64))
        .hasMessageContaining(sha512(archive))
        .hasMessageContaining(archiveUrl());
    assertNothingInstalled();
  }

  @Test
  void rejectsATruncatedArchiveEvenWhenItsChecksumMatches() throws Exception {
    byte[] full = archive("etcd", "kube-apiserver", "kubectl");
    byte[] truncated = Arrays.copyOf(full, full.length / 2);
    serve(truncated, sha512(truncated));

    assertThatThrownBy(() -> download().fetchInto(VERSION, cache))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("truncated or corrupt")
        .hasMessageContaining(ARCHIVE)
        .hasMessageContaining(archiveUrl());
    assertNothingInstalled();
  }

  @Test
  void reportsATruncatedDownloadAsAChecksumMismatch() throws Exception {
    byte[] full = archive("etcd", "kube-apiserver", "kubectl");
    serve(Arrays.copyOf(full, full.length / 2), sha512(full));

    assertThatThrownBy(() -> download().fetchInto(VERSION, cache))
        .hasMessageContaining("Checksum mismatch")
        .hasMessageContaining(archiveUrl());
    assertNothingInstalled();
  }

  @Test
  void namesStatusAndUrlWhenTheArchiveIsMissing() throws Exception {
    serve(archive("etcd", "kube-apiserver"), "00");
    server.remove(ARCHIVE_PATH);

    assertThatThrownBy(() -> download().fetchInto(VERSION, cache))
        .hasMessageContaining("HTTP 404")
        .hasMessageContaining(archiveUrl());
    assertNothingInstalled();
  }

  @Test
  void rejectsAnArchiveWithoutKubeApiServer() throws Exception {
    byte[] archive = archive("etcd", "kubectl");
    serve(archive, sha512(archive));

    assertThatThrownBy(() -> download().fetchInto(VERSION, cache))
        .hasMessageContaining("has no kube-apiserver (binaries found: [etcd, kubectl])")
        .hasMessageContaining(archiveUrl());
    assertNothingInstalled();
  }

  @Test
  void listsTheIndexedVersionsWhenTheVersionIsMissing() throws Exception {
    serve(archive("etcd", "kube-apiserver"), "00");

    assertThatThrownBy(() -> download().fetchInto("1.99.0", cache))
        .hasMessageContaining("v1.99.0 is not in the envtest release index " + indexUrl())
        .hasMessageContaining("v1.37.2, v1.37.0, v1.36.1, v1.36.0-alpha.1")
        .hasMessageContaining("kubeharness.kubernetes.version");
    assertNothingInstalled();
  }

  @Test
  void listsTheIndexedPlatformsWhenThePlatformIsMissing() throws Exception {
    serve(archive("etcd", "kube-apiserver"), "00");
    ReleaseDownload download =
        new ReleaseDownload(URI.create(indexUrl()), new Platform("plan9", "mips"), progress::add);

    assertThatThrownBy(() -> download.fetchInto(VERSION, cache))
        .hasMessageContaining("envtest-v1.37.2-plan9-mips.tar.gz")
        .hasMessageContaining(ARCHIVE);
  }

  @Test
  void failsFastWithTheOfflineHintWhenTheIndexIsUnreachable() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    URI unreachable = URI.create("http://127.0.0.1:" + closedPort + "/envtest-releases.yaml");

    assertThatThrownBy(
            () ->
                new ReleaseDownload(unreachable, PLATFORM, progress::add).fetchInto(VERSION, cache))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("could not be reached (connection refused")
        .hasMessageContaining(unreachable.toString())
        .hasMessageContaining("kubeharness.offline=true")
        .hasMessageContaining("KUBE_HARNESS_OFFLINE=true")
        .hasMessageContaining("KUBE_HARNESS_RELEASE_INDEX_URL")
        .hasMessageContaining("KUBEBUILDER_ASSETS");
    assertNothingInstalled();
  }

  private ReleaseDownload download() {
    return new ReleaseDownload(URI.create(indexUrl()), PLATFORM, progress::add);
  }

  /**
   * Serves the archive at its release path and an index (unordered, as upstream) pointing at it.
   */
  private void serve(byte[] archive, String hash) {
    server.serve(ARCHIVE_PATH, archive);
    String index =
        """
        releases:
          v1.36.0-alpha.1:
            envtest-v1.36.0-alpha.1-linux-amd64.tar.gz:
              hash: 00
              selfLink: %1$s/elsewhere.tar.gz
          v1.37.2:
            envtest-v1.37.2-darwin-arm64.tar.gz:
              hash: 00
              selfLink: %1$s/elsewhere.tar.gz
            %2$s:
              hash: %3$s
              selfLink: %1$s%4$s
          v1.36.1:
            envtest-v1.36.1-linux-amd64.tar.gz:
              hash: 00
              selfLink: %1$s/elsewhere.tar.gz
          v1.37.0:
            envtest-v1.37.0-linux-amd64.tar.gz:
              hash: 00
              selfLink: %1$s/elsewhere.tar.gz
        """
            .formatted(baseUrl(), ARCHIVE, hash, ARCHIVE_PATH);
    server.serve("/envtest-releases.yaml", index.getBytes(StandardCharsets.UTF_8));
  }

  /** An envtest-shaped archive: {@code controller-tools/envtest/<name>} scripts, via system tar. */
  private byte[] archive(String... names) throws Exception {
    Path root = Files.createTempDirectory(fixtures, "archive");
    Path binaries = Files.createDirectories(root.resolve("controller-tools/envtest"));
    for (String name : names) {
      Path script = Files.writeString(binaries.resolve(name), script(name));
      assertThat(script.toFile().setExecutable(true)).isTrue();
    }
    Path archive = fixtures.resolve(root.getFileName() + ".tar.gz");
    Process tar =
        new ProcessBuilder(
                "tar", "-czf", archive.toString(), "-C", root.toString(), "controller-tools")
            .redirectErrorStream(true)
            .start();
    String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(tar.waitFor()).as("tar -czf: %s", output).isZero();
    return Files.readAllBytes(archive);
  }

  private static String script(String name) {
    return "#!/bin/sh\necho " + name + "\n";
  }

  private String sha512(byte[] bytes) throws IOException {
    Path file = Files.createTempFile(fixtures, "hash", ".bin");
    Files.write(file, bytes);
    return BinaryCache.digest(file, "SHA-512");
  }

  private void assertNothingInstalled() throws IOException {
    for (Component component : Component.values()) {
      assertThat(cache.find(component)).as("%s installed", component).isEmpty();
    }
    if (Files.exists(cache.directory())) {
      try (var entries = Files.list(cache.directory())) {
        assertThat(entries).isEmpty();
      }
    }
  }

  private String baseUrl() {
    return server.baseUrl();
  }

  private String indexUrl() {
    return baseUrl() + "/envtest-releases.yaml";
  }

  private String archiveUrl() {
    return baseUrl() + ARCHIVE_PATH;
  }
}
