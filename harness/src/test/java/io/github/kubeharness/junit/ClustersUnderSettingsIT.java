package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.Settings;
import io.github.kubeharness.junit.scenarios.MultiClusterScenarios;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

/**
 * {@code clusters} under settings a suite may set for every class: read as system properties when a
 * class's configuration is made, so each scenario runs in an engine of its own with the property
 * set around it.
 */
class ClustersUnderSettingsIT {

  @Test
  void eachFurtherClusterGetsAnEtcdOfItsOwnWhenTheSettingAsks() {
    assertPasses(
        runWith(Settings.CLUSTERS_ETCD, "own", MultiClusterScenarios.HubEdgeOnOwnEtcds.class));
  }

  @Test
  void aClassWithClustersRunsOnControlPlanesOfItsOwnWhenTheSuiteReusesAKeptOne() {
    // kubeharness.reuse=true: the further clusters cannot share a keeper's etcd, so the class gets
    // control planes of this JVM's own instead of being refused.
    assertPasses(runWith(Settings.REUSE, "true", MultiClusterScenarios.HubEdgeFanOut.class));
  }

  private static List<ScenarioRunner.Outcome> runWith(
      String property, String value, Class<?> scenario) {
    String earlier = System.getProperty(property);
    System.setProperty(property, value);
    try {
      return ScenarioRunner.run(scenario);
    } finally {
      if (earlier == null) {
        System.clearProperty(property);
      } else {
        System.setProperty(property, earlier);
      }
    }
  }

  private static void assertPasses(List<ScenarioRunner.Outcome> outcomes) {
    assertThat(outcomes)
        .isNotEmpty()
        .allSatisfy(
            outcome ->
                assertThat(outcome.status())
                    .as(String.valueOf(outcome.failure()))
                    .isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
  }
}
