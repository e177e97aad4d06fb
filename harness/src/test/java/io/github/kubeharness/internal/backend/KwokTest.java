package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.provision.BinaryResolver;
import io.github.kubeharness.internal.provision.Component;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The simulated profile's pieces that need no running process. */
class KwokTest {

  @Test
  void stagesGetThisRunsStartDelayAndVersionAndNoPlaceholderIsLeft() {
    String config =
        new Kwok(Path.of("kwok"), Path.of("run"), "kubeconfig", Duration.ofMillis(750), "1.37.2")
            .config();

    assertThat(config)
        .doesNotContainPattern("@[A-Z_]+@")
        .contains("durationMilliseconds: 750")
        .contains("kubeletVersion: \"v1.37.2\"")
        .contains("name: kube-harness-pod-ready", "name: kube-harness-pod-crash")
        .contains("kube-harness.io/simulate");
  }

  @Test
  void theSimulatedProfileNeedsTheSchedulerBesideTheStandardBinaries() {
    assertThat(BinaryResolver.needed(Profile.SIMULATED, false))
        .containsExactlyInAnyOrder(
            Component.ETCD,
            Component.KUBE_APISERVER,
            Component.KUBE_CONTROLLER_MANAGER,
            Component.KUBE_SCHEDULER);
    assertThat(BinaryResolver.needed(Profile.STANDARD, false))
        .doesNotContain(Component.KUBE_SCHEDULER);
  }

  @Test
  void workloadControllersRunOnlyInTheSimulatedProfile() {
    assertThat(ControllerManager.flags("k", "/pki", "127.0.0.1", 1, Profile.SIMULATED))
        .anySatisfy(
            f -> assertThat(f).startsWith("--controllers=").contains("deployment-controller"));
    assertThat(ControllerManager.flags("k", "/pki", "127.0.0.1", 1, Profile.STANDARD))
        .noneSatisfy(f -> assertThat(f).contains("deployment-controller"));
  }
}
