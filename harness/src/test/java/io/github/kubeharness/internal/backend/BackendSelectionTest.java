package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.provision.BinaryCache;
import io.github.kubeharness.internal.provision.Component;
import io.github.kubeharness.internal.provision.Platform;
import io.github.kubeharness.launch.ControlPlanes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code auto} picks a backend, and that it says so once. */
class BackendSelectionTest {

  @Test
  void provisionedBinariesMeanLocal(@TempDir Path cache) throws Exception {
    BinaryCache binaries = new BinaryCache(cache, "1.37.2", Platform.current());
    for (Component c : List.of(Component.ETCD, Component.KUBE_APISERVER)) {
      Path fake = Files.writeString(cache.resolve(c.fileName()), "#!/bin/sh\n");
      binaries.install(c, fake);
    }
    List<String> said = new ArrayList<>();
    ControlPlane cp = ControlPlanes.create(options(cache, said));

    assertThat(cp).isInstanceOf(LocalControlPlane.class);
    assertThat(said).singleElement().asString().contains("backend auto -> local", "provisioned");
  }

  @Test
  void useExistingClusterWinsOverEverything() {
    Backends.Choice choice = Backends.decide(true, false, () -> true, "1.37.2", () -> null);
    assertThat(choice.backend()).isEqualTo(Backend.EXISTING);
    assertThat(choice.reason()).isEqualTo("USE_EXISTING_CLUSTER=true");
  }

  @Test
  void provisionedBinariesWinOverDockerWithoutAskingDocker() {
    Backends.Choice choice =
        Backends.decide(
            false,
            false,
            () -> true,
            "1.37.2",
            () -> {
              throw new AssertionError("Docker must not be probed when binaries are there");
            });
    assertThat(choice.backend()).isEqualTo(Backend.LOCAL);
    assertThat(choice.reason()).contains("v1.37.2 are provisioned");
  }

  @Test
  void withoutBinariesAReachableDockerMeansContainer() {
    Backends.Choice choice = Backends.decide(false, false, () -> false, "1.37.2", () -> null);
    assertThat(choice.backend()).isEqualTo(Backend.CONTAINER);
    assertThat(choice.reason()).contains("Docker is reachable");
  }

  @Test
  void withoutBinariesOrDockerItProvisions() {
    Backends.Choice choice =
        Backends.decide(false, false, () -> false, "1.37.2", () -> "connection refused");
    assertThat(choice.backend()).isEqualTo(Backend.LOCAL);
    assertThat(choice.reason()).contains("no Docker (connection refused)", "provisioning");
  }

  @Test
  void theSimulatedProfileMeansLocalWithoutAskingDocker() {
    Backends.Choice choice =
        Backends.decide(
            false,
            true,
            () -> false,
            "1.37.2",
            () -> {
              throw new AssertionError("Docker must not be probed for the simulated profile");
            });
    assertThat(choice.backend()).isEqualTo(Backend.LOCAL);
    assertThat(choice.reason()).contains("simulated profile runs on the local backend only");
  }

  private static ControlPlaneOptions options(Path cache, List<String> said) {
    return ControlPlaneOptions.builder()
        .withBackend(Backend.AUTO)
        .withProfile(Profile.MINIMAL)
        .withCacheDirectory(cache)
        .withAssetsDirectory(cache.resolve("no-assets"))
        .withOffline(true)
        .withProgress(said::add)
        .build();
  }
}
