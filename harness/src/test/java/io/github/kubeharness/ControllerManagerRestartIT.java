package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.launch.ControlPlanes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The deterministic half of the garbage-collection promise: installing new CRDs restarts
 * kube-controller-manager (so its garbage collector knows the new kinds at once), installing known
 * ones does not. Local processes, so that the restart is seen as a new PID.
 */
class ControllerManagerRestartIT {

  @Test
  void newCrdsRestartTheControllerManagerAndKnownOnesDoNot() {
    try (ControlPlane controlPlane =
        ControlPlanes.local(ControlPlaneOptions.builder().withProfile(Profile.STANDARD).build())) {
      controlPlane.start();
      long before = controllerManagerPid(controlPlane);

      assertThat(controlPlane.installCrds(List.of("src/test/resources/crds"), List.of()))
          .isPositive();
      long afterNewCrds = controllerManagerPid(controlPlane);
      assertThat(controlPlane.installCrds(List.of("src/test/resources/crds"), List.of())).isZero();
      long afterSameCrds = controllerManagerPid(controlPlane);

      assertThat(afterNewCrds).as("restarted for new CRDs").isNotEqualTo(before);
      assertThat(afterSameCrds).as("not restarted for known CRDs").isEqualTo(afterNewCrds);
    }
  }

  private static long controllerManagerPid(ControlPlane controlPlane) {
    return ComponentProcesses.of(controlPlane).get("kube-controller-manager");
  }
}
