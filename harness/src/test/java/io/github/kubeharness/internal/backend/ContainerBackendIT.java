package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendChild;
import io.github.kubeharness.ChildJvm;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.DockerContainers;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.KubeUser;
import io.github.kubeharness.Profile;
import io.github.kubeharness.Versions;
import io.github.kubeharness.launch.ControlPlanes;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The container backend against the real Docker engine and the locally built images ({@code make
 * images}): same identities and readiness as local, clear errors, and no container outlives its
 * JVM. Networking follows {@code kubeharness.network} (host on the development machines).
 */
class ContainerBackendIT {

  @AfterEach
  void clearSettings() {
    System.clearProperty(ContainerImages.APISERVER_SETTING);
  }

  @Test
  void containerControlPlaneServesAuthenticatedRbacRequestsAndLeavesNothingBehind()
      throws Exception {
    Set<String> before = DockerContainers.ids();
    ControlPlane cp = ControlPlanes.create(options(Profile.MINIMAL).build());
    cp.start();
    try (KubernetesClient admin = cp.newClient()) {
      assertThat(admin.getKubernetesVersion().getGitVersion()).isEqualTo("v" + Versions.KUBERNETES);
      assertThat(admin.namespaces().withName("default").get()).isNotNull();
      KubeUser eve = cp.addUser("eve", List.of());
      try (KubernetesClient asEve = eve.newClient()) {
        assertThatThrownBy(() -> asEve.configMaps().inNamespace("default").list())
            .isInstanceOf(KubernetesClientException.class)
            .hasMessageContaining("User \"eve\" cannot list");
      }
      assertThat(cp.auditLogFile()).isEmpty();
      Set<String> during = DockerContainers.ids();
      during.removeAll(before);
      assertThat(during).hasSize(2);
    } finally {
      cp.stop();
    }
    assertThat(DockerContainers.ids()).isEqualTo(before);
  }

  @Test
  void standardProfileRunsTheControllerManagerInAContainer() {
    ControlPlane cp = ControlPlanes.create(options(Profile.STANDARD).build());
    cp.start();
    try (KubernetesClient admin = cp.newClient()) {
      // The controller manager's serviceaccount controller made this: proof that it runs.
      assertThat(admin.serviceAccounts().inNamespace("default").withName("default").get())
          .isNotNull();
    } finally {
      cp.stop();
    }
  }

  @Test
  void aContainerThatExitsDuringStartIsReportedWithItsLog() {
    ControlPlane cp =
        ControlPlanes.create(
            options(Profile.MINIMAL).withExtraApiServerFlag("--no-such-flag=1").build());
    assertThatThrownBy(cp::start)
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining(
            "kube-apiserver (registry.k8s.io/kube-apiserver:v"
                + Versions.KUBERNETES
                + ") exited during start")
        .hasMessageContaining("unknown flag: --no-such-flag");
  }

  @Test
  void anImageThatIsNeitherPresentNorPullableIsNamedWithTheFix() {
    System.setProperty(
        ContainerImages.APISERVER_SETTING, "registry.k8s.io/kube-apiserver:v0.0.0-absent");
    ControlPlane cp = ControlPlanes.create(options(Profile.MINIMAL).build());
    assertThatThrownBy(cp::start)
        .hasMessageContaining("registry.k8s.io/kube-apiserver:v0.0.0-absent")
        .hasMessageContaining("make images");
  }

  @Test
  void containersAreRemovedWhenTheJvmIsKilledWithSigkill() throws Exception {
    Set<String> before = DockerContainers.ids();
    try (ChildJvm child = ChildJvm.start(BackendChild.class.getName(), "container", "minimal")) {
      child.awaitLine(l -> l.startsWith("READY "), Duration.ofMinutes(2));
      Set<String> started = DockerContainers.ids();
      started.removeAll(before);
      assertThat(started).hasSize(2);

      child.process().destroyForcibly();
      child.process().waitFor();

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> assertThat(DockerContainers.ids()).doesNotContainAnyElementsOf(started));
    }
  }

  private static ControlPlaneOptions.Builder options(Profile profile) {
    return ControlPlaneOptions.builder().withBackend(Backend.CONTAINER).withProfile(profile);
  }

  /** Ids of all containers, running or not, by the docker CLI (independent of the harness). */
}
