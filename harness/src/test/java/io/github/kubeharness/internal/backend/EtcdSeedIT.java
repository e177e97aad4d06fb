package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeUser;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.provision.BinaryResolver;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.settings.SettingsResolver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local control planes start from an etcd seed: made on first use, reused after, and a seed etcd
 * cannot start from is thrown away rather than failing the start.
 */
class EtcdSeedIT {

  @TempDir Path cache;
  final List<String> progress = new CopyOnWriteArrayList<>();

  @Test
  void theFirstStartMakesTheSeedAndLaterStartsUseIt() throws IOException {
    runOnce(plane -> {});
    assertThat(progress).anyMatch(line -> line.startsWith("making an etcd seed"));
    Path seed = onlySeed();

    progress.clear();
    runOnce(
        plane -> {
          try (KubernetesClient admin = plane.newClient()) {
            // What the apiserver writes at start is there, and the cluster takes new objects.
            assertThat(admin.namespaces().withName("kube-system").get()).isNotNull();
            assertThat(admin.rbac().clusterRoles().withName("cluster-admin").get()).isNotNull();
            admin
                .namespaces()
                .resource(
                    new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("fresh")
                        .endMetadata()
                        .build())
                .create();
            // A user with no grants still has the bootstrap discovery roles, as on an empty start.
            KubeUser nobody = plane.addUser("nobody", List.of());
            try (KubernetesClient asNobody = nobody.newClient()) {
              assertThat(asNobody.getKubernetesVersion().getGitVersion()).startsWith("v");
            }
          }
        });
    assertThat(progress).noneMatch(line -> line.contains("etcd seed"));
    assertThat(onlySeed()).isEqualTo(seed);
  }

  @Test
  void aSeedEtcdCannotStartFromIsDiscardedAndTheStartGoesOnEmpty() throws IOException {
    runOnce(plane -> {});
    Path seed = onlySeed();
    try (Stream<Path> files = Files.walk(seed)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.writeString(file, "not etcd data");
      }
    }

    progress.clear();
    runOnce(
        plane -> {
          try (KubernetesClient admin = plane.newClient()) {
            assertThat(admin.namespaces().withName("default").get()).isNotNull();
          }
        });
    assertThat(progress).anyMatch(line -> line.contains("discarded it, starting empty"));
    assertThat(seed).doesNotExist();
  }

  private void runOnce(java.util.function.Consumer<ControlPlane> check) {
    Path binaries =
        new BinaryResolver(SettingsResolver.resolve(ControlPlaneOptions.defaults()))
            .resolve(Profile.MINIMAL)
            .kubeApiServer()
            .getParent();
    ControlPlane plane =
        ControlPlanes.local(
            ControlPlaneOptions.builder()
                .withProfile(Profile.MINIMAL)
                .withAssetsDirectory(binaries)
                .withCacheDirectory(cache)
                .withOffline(true)
                // Making the seed boots an apiserver per keyspace on an empty etcd, bounded by the
                // start timeout: late in a loaded suite (CI: every shared cluster still up) that
                // took over a minute once. This test is about the seed, not its speed.
                .withStartTimeout(java.time.Duration.ofMinutes(3))
                .withProgress(progress::add)
                .build());
    plane.start();
    try {
      check.accept(plane);
    } finally {
      plane.stop();
    }
  }

  private Path onlySeed() throws IOException {
    // What the start said (making the seed, or why it started without one) when there is none.
    assertThat(cache.resolve("etcd-seeds")).as("progress: %s", progress).isDirectory();
    try (Stream<Path> seeds = Files.list(cache.resolve("etcd-seeds"))) {
      List<Path> all = seeds.filter(p -> !p.getFileName().toString().startsWith(".")).toList();
      assertThat(all).hasSize(1);
      return all.get(0);
    }
  }
}
