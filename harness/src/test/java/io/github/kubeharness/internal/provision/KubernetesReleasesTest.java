package io.github.kubeharness.internal.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a version a user writes becomes one the provisioner can get: the proxy's list (here as the
 * cache keeps it) and the cache's own versions, newest patch of the minor winning.
 */
class KubernetesReleasesTest {

  @TempDir Path cache;

  @Test
  void aFullVersionIsTakenAsIs() {
    assertThat(releases().resolve("1.36.99")).isEqualTo("1.36.99");
    assertThat(releases().resolve("v1.35.4")).isEqualTo("1.35.4");
  }

  @Test
  void aMinorIsItsNewestServedPatch() throws IOException {
    served("v1.35.4 v1.36.0-rc.1 v1.36.1 v1.36.3 v1.37.0-beta.0 v1.37.2");

    assertThat(releases().resolve("1.36")).isEqualTo("1.36.3");
    assertThat(releases().resolve("1.35")).isEqualTo("1.35.4");
    assertThat(releases().resolve("v1.37")).isEqualTo("1.37.2");
  }

  @Test
  void aNewerPatchInTheCacheWinsOverTheList() throws IOException {
    served("v1.36.1");
    cached("1.36.5");

    assertThat(releases().resolve("1.36")).isEqualTo("1.36.5");
  }

  @Test
  void aMinorNobodyHasIsAnErrorNamingTheNewestServed() throws IOException {
    served("v1.35.4 v1.37.2");

    assertThatThrownBy(() -> releases().resolve("1.36"))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("Kubernetes 1.36.x cannot be had")
        .hasMessageContaining("its newest: 1.37.2")
        .hasMessageContaining(cache.resolve("k8s").toString());
  }

  @Test
  void somethingElseIsAnErrorSayingWhatIsAccepted() {
    assertThatThrownBy(() -> releases().resolve("latest"))
        .hasMessageContaining("'latest' is neither MAJOR.MINOR")
        .hasMessageContaining("MAJOR.MINOR.PATCH");
  }

  @Test
  void newestOfIgnoresPreReleasesAndOtherMinors() {
    assertThat(
            KubernetesReleases.newestOf(
                "1.36", List.of("v1.36.2", "v1.36.10", "v1.36.11-rc.0", "v1.360.1", "v1.37.0")))
        .contains("1.36.10");
    assertThat(KubernetesReleases.newestOf("1.34", List.of("v1.36.2"))).isEmpty();
  }

  @Test
  void withoutGoTheReleaseIndexSaysWhatADownloadCanGet() throws IOException {
    String platform = Platform.current().toString();
    String yaml =
        "releases:\n"
            + "  v1.36.2:\n    envtest-v1.36.2-"
            + platform
            + ".tar.gz: {hash: x, selfLink: y}\n"
            + "  v1.36.4:\n    envtest-v1.36.4-other-arch.tar.gz: {hash: x, selfLink: y}\n";
    try (FixtureServer index = new FixtureServer()) {
      index.serve("/index.yaml", yaml.getBytes(StandardCharsets.UTF_8));
      ControlPlaneOptions options =
          ControlPlaneOptions.builder()
              .withCacheDirectory(cache)
              .withOffline(false)
              .withReleaseIndex(URI.create(index.baseUrl() + "/index.yaml"))
              .withProgress(line -> {})
              .build();

      // No Go: the proxy's list cannot be had; the index's archive for this platform can.
      assertThat(new KubernetesReleases(options, "/nonexistent/go").resolve("1.36"))
          .isEqualTo("1.36.2");
    }
  }

  private KubernetesReleases releases() {
    return new KubernetesReleases(
        ControlPlaneOptions.builder().withCacheDirectory(cache).withProgress(line -> {}).build());
  }

  /** The proxy's list as the cache keeps it, fresh: no {@code go list} runs. */
  private void served(String versions) throws IOException {
    Path file = cache.resolve("k8s").resolve("served-versions.txt");
    Files.createDirectories(file.getParent());
    Files.writeString(file, versions + "\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
  }

  private void cached(String version) throws IOException {
    Path dir = cache.resolve("k8s").resolve(version + "-" + Platform.current());
    Files.createDirectories(dir);
    Path apiserver = Files.writeString(dir.resolve("kube-apiserver"), "#!/bin/sh\n");
    apiserver.toFile().setExecutable(true);
  }
}
