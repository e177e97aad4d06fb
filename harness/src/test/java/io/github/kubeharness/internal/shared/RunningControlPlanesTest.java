package io.github.kubeharness.internal.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.shared.RunningControlPlanes.Lease;
import org.junit.jupiter.api.Test;

/**
 * The JVM's registry of control planes, without starting one: who shares what, and when the last
 * holder lets go. The starts themselves are the ITs' (OneControlPlaneIT in the Spring sample).
 */
class RunningControlPlanesTest {

  private static ControlPlaneOptions local(int simulatedNodes, String origin) {
    return ControlPlaneOptions.builder()
        .withBackend(BackendOptions.local().withSimulatedNodes(simulatedNodes))
        .withProfile(Profile.MINIMAL)
        .withKubernetesVersion("1.36.3")
        .withReuse(false)
        .withAuditLog(true)
        .withOrigin(origin)
        .build();
  }

  @Test
  void equalOptionsFromDifferentAskersShareOneControlPlaneUntilTheLastLetsGo() {
    int before = RunningControlPlanes.count();
    Lease junit = RunningControlPlanes.lease(local(3, "@ControllerTest on A"));
    Lease spring = RunningControlPlanes.lease(local(3, "@EnableKubeHarness on B"));
    try {
      assertThat(spring.made()).isSameAs(junit.made());
      assertThat(RunningControlPlanes.count()).isEqualTo(before + 1);

      junit.close();
      junit.close(); // a second close is no second release
      assertThat(RunningControlPlanes.count()).isEqualTo(before + 1);
    } finally {
      spring.close();
    }
    assertThat(RunningControlPlanes.count()).isEqualTo(before);
  }

  @Test
  void backendOptionsMakeAnotherControlPlane() {
    try (Lease three = RunningControlPlanes.lease(local(3, "A"));
        Lease four = RunningControlPlanes.lease(local(4, "A"))) {
      assertThat(four.made()).isNotSameAs(three.made());
    }
  }

  @Test
  void whatCouldNotBeMadeFailsEachHolderWithTheSameReasonUntilAllLetGo() {
    int before = RunningControlPlanes.count();
    ControlPlaneOptions existing =
        ControlPlaneOptions.builder().withBackend(Backend.EXISTING).withReuse(false).build();
    try (Lease first = RunningControlPlanes.lease(existing);
        Lease edge = RunningControlPlanes.leaseBeside(first, "edge", false, "MyTest");
        Lease again = RunningControlPlanes.leaseBeside(first, "edge", false, "MyTest")) {
      // The existing backend has no clusters beside it: refused once, the same refusal for all.
      Throwable refusal = catchThrowable(edge::made);
      assertThat(refusal).hasMessageContaining("MyTest");
      assertThat(catchThrowable(again::started)).isSameAs(refusal);
      assertThat(RunningControlPlanes.count()).isEqualTo(before + 2);
    }
    assertThat(RunningControlPlanes.count()).isEqualTo(before);
  }

  @Test
  void theKeyHoldsWhatMakesTwoControlPlanesDiffer() {
    ControlPlaneOptions base = local(1, "A");
    assertThat(ControlPlaneKey.of(base)).isEqualTo(ControlPlaneKey.of(local(1, "B")));
    assertThat(ControlPlaneKey.of(base.toBuilder().withAuditLog(false).build()))
        .isNotEqualTo(ControlPlaneKey.of(base));
    assertThat(
            ControlPlaneKey.of(
                base.toBuilder().withExtraApiServerFlag("--max-requests-inflight=10").build()))
        .isNotEqualTo(ControlPlaneKey.of(base));
    ControlPlaneOptions bridge =
        base.toBuilder()
            .withBackend(BackendOptions.container().withNetwork(NetworkMode.BRIDGE))
            .build();
    ControlPlaneOptions host =
        base.toBuilder()
            .withBackend(BackendOptions.container().withNetwork(NetworkMode.HOST))
            .build();
    assertThat(ControlPlaneKey.of(bridge)).isNotEqualTo(ControlPlaneKey.of(host));
    assertThat(ControlPlaneKey.of(base).beside("edge", false))
        .isNotEqualTo(ControlPlaneKey.of(base))
        .isNotEqualTo(ControlPlaneKey.of(base).beside("edge", true));
  }
}
