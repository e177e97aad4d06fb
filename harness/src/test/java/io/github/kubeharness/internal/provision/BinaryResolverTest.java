package io.github.kubeharness.internal.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BinaryResolver}'s precedence (TEST_ASSET_* &gt; KUBEBUILDER_ASSETS &gt; cache &gt;
 * provisioning) and its message when nothing can provide the binaries. Uses fake executables and an
 * injected environment; never the real binaries, the user's cache or the network.
 */
class BinaryResolverTest {

  private static final String VERSION = "1.37.2";

  @TempDir Path cacheRoot;
  @TempDir Path assets;
  @TempDir Path elsewhere;

  private final List<String> progress = new CopyOnWriteArrayList<>();
  private ControlPlaneOptions options;

  @BeforeEach
  void setUp() {
    options = optionsWithAssets(assets);
  }

  @Test
  void testAssetVariablesWinOverTheAssetsDirectory() throws IOException {
    executable(assets, "etcd");
    executable(assets, "kube-apiserver");
    Path etcd = executable(elsewhere, "my-etcd");
    Path apiServer = executable(elsewhere, "my-kube-apiserver");

    Binaries binaries =
        resolver(
                Map.of(
                    "TEST_ASSET_ETCD", etcd.toString(),
                    "TEST_ASSET_KUBE_APISERVER", apiServer.toString()))
            .resolve(Profile.MINIMAL);

    assertThat(binaries.etcd()).isEqualTo(etcd);
    assertThat(binaries.kubeApiServer()).isEqualTo(apiServer);
    assertThat(binaries.origin()).isEqualTo("TEST_ASSET_ETCD + TEST_ASSET_KUBE_APISERVER");
    assertNothingProvisioned();
  }

  @Test
  void oneTestAssetVariableOverridesJustItsBinary() throws IOException {
    executable(assets, "etcd");
    Path assetsApiServer = executable(assets, "kube-apiserver");
    Path etcd = executable(elsewhere, "my-etcd");

    Binaries binaries =
        resolver(Map.of("TEST_ASSET_ETCD", etcd.toString())).resolve(Profile.MINIMAL);

    assertThat(binaries.etcd()).isEqualTo(etcd);
    assertThat(binaries.kubeApiServer()).isEqualTo(assetsApiServer);
    assertThat(binaries.origin()).isEqualTo("TEST_ASSET_ETCD + KUBEBUILDER_ASSETS=" + assets);
  }

  @Test
  void testAssetVariablePointingAtANonExecutableNamesTheVariable() throws IOException {
    executable(assets, "etcd");
    executable(assets, "kube-apiserver");
    Path notExecutable = Files.writeString(elsewhere.resolve("kube-apiserver.txt"), "text");

    assertThatThrownBy(
            () ->
                resolver(Map.of("TEST_ASSET_KUBE_APISERVER", notExecutable.toString()))
                    .resolve(Profile.MINIMAL))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("TEST_ASSET_KUBE_APISERVER points at " + notExecutable)
        .hasMessageContaining("not an executable file")
        .hasMessageContaining("Fix or unset it");
  }

  @Test
  void testAssetVariablePointingAtNothingNamesTheVariable() {
    Path missing = elsewhere.resolve("no-such-etcd");

    assertThatThrownBy(
            () -> resolver(Map.of("TEST_ASSET_ETCD", missing.toString())).resolve(Profile.MINIMAL))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("TEST_ASSET_ETCD points at " + missing)
        .hasMessageContaining("Fix or unset it");
  }

  @Test
  void assetsDirectoryInEnvtestLayoutIsUsedAndNamedAsTheOrigin() throws IOException {
    Path etcd = executable(assets, "etcd");
    Path apiServer = executable(assets, "kube-apiserver");
    Path kubectl = executable(assets, "kubectl");

    Binaries binaries = resolver(Map.of()).resolve(Profile.MINIMAL);

    assertThat(binaries.etcd()).isEqualTo(etcd);
    assertThat(binaries.kubeApiServer()).isEqualTo(apiServer);
    assertThat(binaries.kubectl()).contains(kubectl);
    assertThat(binaries.kubeControllerManager()).isEmpty();
    assertThat(binaries.origin()).isEqualTo("KUBEBUILDER_ASSETS=" + assets);
    assertNothingProvisioned();
  }

  @Test
  void cachedBinariesAreUsedWhenNoAssetsAreGiven() throws IOException {
    BinaryCache cache = resolver(Map.of()).cache();
    Path etcd = cache.install(Component.ETCD, executable(elsewhere, "etcd"));
    Path apiServer =
        cache.install(Component.KUBE_APISERVER, executable(elsewhere, "kube-apiserver"));

    Binaries binaries = resolver(Map.of()).resolve(Profile.MINIMAL);

    assertThat(binaries.etcd()).isEqualTo(etcd);
    assertThat(binaries.kubeApiServer()).isEqualTo(apiServer);
    assertThat(binaries.origin()).isEqualTo("cache " + cache.directory());
  }

  @Test
  void nodeBinariesComeFromTheirVariablesTheAssetsDirectoryAndTheCacheLikeTheRest()
      throws IOException {
    Path kubelet = executable(elsewhere, "my-kubelet");
    Path kubeadm = executable(assets, "kubeadm");
    BinaryCache cache = resolver(Map.of()).cache();
    Path scheduler =
        cache.install(Component.KUBE_SCHEDULER, executable(elsewhere, "kube-scheduler"));
    Path proxy = cache.install(Component.KUBE_PROXY, executable(elsewhere, "kube-proxy"));
    Set<String> origins = new LinkedHashSet<>();

    Map<Component, Path> node =
        resolver(Map.of("TEST_ASSET_KUBELET", kubelet.toString())).resolve(Component.NODE, origins);

    assertThat(node)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                Component.KUBELET, kubelet,
                Component.KUBEADM, kubeadm,
                Component.KUBE_SCHEDULER, scheduler,
                Component.KUBE_PROXY, proxy));
    assertThat(origins)
        .containsExactlyInAnyOrder(
            "TEST_ASSET_KUBELET", "KUBEBUILDER_ASSETS=" + assets, "cache " + cache.directory());
  }

  @Test
  void aMissingNodeBinaryIsBuiltAndTheMessageSaysWhatCannotBe() throws IOException {
    Path noGo = elsewhere.resolve("no-such-dir").resolve("go");

    assertThatThrownBy(
            () ->
                resolver(Map.of("KUBE_HARNESS_GO", noGo.toString()))
                    .resolve(Component.NODE, new LinkedHashSet<>()))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("no working Go toolchain")
        .hasMessageContaining(noGo.toString());
    assertNothingProvisioned();
  }

  @Test
  void offlineWithoutBinariesAndWithoutGoListsEveryFix() throws IOException {
    Path noGo = elsewhere.resolve("no-such-dir").resolve("go");

    assertThatThrownBy(
            () -> resolver(Map.of("KUBE_HARNESS_GO", noGo.toString())).resolve(Profile.MINIMAL))
        .isInstanceOf(KubeHarnessException.class)
        // what is missing, and why it cannot be built
        .hasMessageContaining("Kubernetes v" + VERSION + " binaries are not provisioned")
        .hasMessageContaining("no working Go toolchain")
        .hasMessageContaining(noGo.toString())
        // the fixes
        .hasMessageContaining("install Go")
        .hasMessageContaining(
            "set KUBEBUILDER_ASSETS to a directory holding etcd and kube-apiserver")
        .hasMessageContaining("allow the envtest download")
        .hasMessageContaining("kubeharness.offline")
        .hasMessageContaining("KUBE_HARNESS_OFFLINE");

    assertNothingProvisioned();
    // Offline means no download attempt at all.
    assertThat(progress).noneMatch(line -> line.contains("download"));
  }

  // KUBE_HARNESS_GO is resolved into the options, as the entry points do; the rest is envtest's.
  // The environment as the settings read it into the options: TEST_ASSET_<NAME>, KUBE_HARNESS_GO.
  private BinaryResolver resolver(Map<String, String> environment) {
    ControlPlaneOptions.Builder resolved = options.toBuilder();
    environment.forEach(
        (variable, value) -> {
          if (variable.equals("KUBE_HARNESS_GO")) {
            resolved.withGoCommand(value);
          } else {
            String binary =
                variable
                    .substring("TEST_ASSET_".length())
                    .toLowerCase(Locale.ROOT)
                    .replace('_', '-');
            resolved.withBinary(binary, Path.of(value));
          }
        });
    return new BinaryResolver(resolved.build());
  }

  private ControlPlaneOptions optionsWithAssets(Path assetsDirectory) {
    return ControlPlaneOptions.builder()
        .withKubernetesVersion(VERSION)
        .withProfile(Profile.MINIMAL)
        .withCacheDirectory(cacheRoot)
        .withAssetsDirectory(assetsDirectory)
        .withOffline(true)
        // Never the real index, even if offline mode were ignored.
        .withReleaseIndex(URI.create("http://127.0.0.1:9/envtest-releases.yaml"))
        .withProgress(progress::add)
        .build();
  }

  /** No binary, half-written file or build staging directory was left in the cache. */
  private void assertNothingProvisioned() throws IOException {
    try (Stream<Path> files = Files.walk(cacheRoot)) {
      assertThat(files.filter(Files::isRegularFile))
          .allSatisfy(
              file ->
                  assertThat(file.getFileName().toString())
                      .matches("\\.1\\.37\\.2-.*\\.lock|build\\.log"));
    }
    Path versions = cacheRoot.resolve("k8s");
    if (Files.isDirectory(versions)) {
      try (Stream<Path> entries = Files.list(versions)) {
        assertThat(entries.map(p -> p.getFileName().toString()))
            .noneMatch(n -> n.startsWith(".build-"));
      }
    }
  }

  private static Path executable(Path directory, String name) throws IOException {
    Path file = Files.writeString(directory.resolve(name), "#!/bin/sh\nexit 0\n");
    assertThat(file.toFile().setExecutable(true)).isTrue();
    return file;
  }
}
