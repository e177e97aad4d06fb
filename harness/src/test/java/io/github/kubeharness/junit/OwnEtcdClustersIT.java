package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.Settings;
import io.github.kubeharness.junit.scenarios.MultiClusterScenarios;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

/**
 * {@code kubeharness.clusters.etcd=own}: on the local backend too, each further cluster is a whole
 * control plane with an etcd of its own. Read as a system property when a class's configuration is
 * made, so the scenario runs in its own engine with the property set around it.
 */
class OwnEtcdClustersIT {

  @Test
  void eachFurtherClusterGetsAnEtcdOfItsOwnWhenTheSettingAsks() {
    List<ScenarioRunner.Outcome> outcomes;
    String earlier = System.getProperty(Settings.CLUSTERS_ETCD);
    System.setProperty(Settings.CLUSTERS_ETCD, "own");
    try {
      outcomes = ScenarioRunner.run(MultiClusterScenarios.HubEdgeOnOwnEtcds.class);
    } finally {
      if (earlier == null) {
        System.clearProperty(Settings.CLUSTERS_ETCD);
      } else {
        System.setProperty(Settings.CLUSTERS_ETCD, earlier);
      }
    }
    assertThat(outcomes)
        .singleElement()
        .satisfies(
            outcome ->
                assertThat(outcome.status())
                    .as(String.valueOf(outcome.failure()))
                    .isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
  }
}
