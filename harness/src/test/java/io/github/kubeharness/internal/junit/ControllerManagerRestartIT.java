package io.github.kubeharness.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.LocalControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Deterministic half of GarbageCollectionIT: installing CRDs the cluster did not have restarts
 * kube-controller-manager (so its garbage collector knows the new kinds at once, not after its 30 s
 * rediscovery), and installing them again changes nothing and restarts nothing.
 */
class ControllerManagerRestartIT {

  @ControllerTest(crds = "src/test/resources/crds", profile = "standard", backend = "local")
  static class NeedsWidgets {}

  @Test
  void newCrdsRestartTheControllerManagerAndKnownOnesDoNot() {
    ExtensionConfig config =
        ExtensionConfig.of(
            NeedsWidgets.class.getAnnotation(ControllerTest.class), NeedsWidgets.class);
    try (SharedCluster cluster = SharedCluster.start(config)) {
      LocalControlPlane controlPlane = (LocalControlPlane) cluster.controlPlane();
      long before = controllerManagerPid(controlPlane);

      cluster.installCrds(config);
      long afterNewCrds = controllerManagerPid(controlPlane);
      cluster.installCrds(config);
      long afterSameCrds = controllerManagerPid(controlPlane);

      assertThat(afterNewCrds).as("restarted for new CRDs").isNotEqualTo(before);
      assertThat(afterSameCrds).as("not restarted for known CRDs").isEqualTo(afterNewCrds);
    }
  }

  private static long controllerManagerPid(LocalControlPlane controlPlane) {
    List<Long> pids = controlPlane.pids(); // etcd, kube-apiserver, kube-controller-manager
    return pids.get(2);
  }
}
