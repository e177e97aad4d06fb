package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Settings;
import io.github.kubeharness.junit.scenarios.MultiClusterScenarios.HubEdgeRecorded;
import io.github.kubeharness.junit.scenarios.MultiClusterScenarios.HubEdgeRecorded.Seen;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

/**
 * {@code clusters} under settings a suite may set for every class: read as system properties when a
 * class's configuration is made, so each scenario runs in an engine of its own with the property
 * set around it. The scenario records what each cluster ran on ({@link HubEdgeRecorded}); the
 * checks here read that, and the processes and files, from the outside.
 */
class ClustersUnderSettingsIT {

  @Test
  void eachFurtherClusterGetsAnEtcdOfItsOwnWhenTheSettingAsks() {
    Map<String, Seen> own = runWith(Settings.CLUSTERS_ETCD, "own");
    for (String cluster : List.of("hub", "edge-1")) {
      Seen seen = own.get(cluster);
      assertThat(seen.processes()).as(cluster + "'s processes").containsKey("etcd");
      assertThat(etcdServers(seen))
          .as(cluster + "'s kube-apiserver keeps its objects in the etcd of its own run")
          .contains(seen.run().toString());
      assertThat(seen.apiServerArguments())
          .as(cluster + ": a whole etcd, no key prefix on another's")
          .noneMatch(a -> a.startsWith("--etcd-prefix="));
    }
    assertThat(own.get("edge-1").processes().get("etcd"))
        .as("two etcd processes")
        .isNotEqualTo(own.get("hub").processes().get("etcd"));

    // The control: by default the edge is an apiserver on the hub's etcd, and the same checks
    // tell it apart.
    Map<String, Seen> shared = runWith(Settings.CLUSTERS_ETCD, "shared");
    Seen edge = shared.get("edge-1");
    assertThat(edge.processes()).as("the shared edge's processes").doesNotContainKey("etcd");
    assertThat(etcdServers(edge)).contains(shared.get("hub").run().toString());
    assertThat(edge.apiServerArguments()).anyMatch(a -> a.startsWith("--etcd-prefix="));
  }

  @Test
  void aClassWithClustersRunsOnControlPlanesOfItsOwnWhenTheSuiteReusesAKeptOne() {
    // kubeharness.reuse=true: the further clusters cannot share a keeper's etcd, so the class gets
    // control planes of this JVM's own instead of being refused: run in this JVM's run root (whose
    // runs its watchdog removes), not in the kept control planes' directory.
    Path kept = ControlPlaneOptions.builder().build().cacheDirectory().resolve("reuse");
    Path runRoot = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
    Map<String, Seen> reused = runWith(Settings.REUSE, "true");
    for (String cluster : List.of("hub", "edge-1")) {
      Seen seen = reused.get(cluster);
      assertThat(seen.processes()).as(cluster + "'s processes").containsKey("kube-apiserver");
      assertThat(seen.run().startsWith(kept))
          .as(cluster + "'s run directory " + seen.run() + ", under " + kept)
          .isFalse();
      assertThat(seen.run().getParent().getFileName().toString())
          .as(cluster + "'s run directory " + seen.run() + ": in this user's run root")
          .startsWith("kube-harness-");
      assertThat(seen.run().getParent().getParent()).isEqualTo(runRoot);
    }
  }

  /** Runs the recording scenario with {@code property} set; it passes; what it recorded. */
  private static Map<String, Seen> runWith(String property, String value) {
    String earlier = System.getProperty(property);
    HubEdgeRecorded.SEEN.clear();
    System.setProperty(property, value);
    try {
      List<ScenarioRunner.Outcome> outcomes = ScenarioRunner.run(HubEdgeRecorded.class);
      assertThat(outcomes)
          .extracting(ScenarioRunner.Outcome::displayName)
          .containsExactlyInAnyOrder(
              "theWidgetReachesTheEdge()", "recordsItsClusters(ControlPlane, ControlPlane)");
      assertThat(outcomes)
          .allSatisfy(
              outcome ->
                  assertThat(outcome.status())
                      .as(String.valueOf(outcome.failure()))
                      .isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
      assertThat(HubEdgeRecorded.SEEN).containsOnlyKeys("hub", "edge-1");
      return Map.copyOf(HubEdgeRecorded.SEEN);
    } finally {
      if (earlier == null) {
        System.clearProperty(property);
      } else {
        System.setProperty(property, earlier);
      }
    }
  }

  private static String etcdServers(Seen seen) {
    return seen.apiServerArguments().stream()
        .filter(a -> a.startsWith("--etcd-servers="))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no --etcd-servers in " + seen));
  }
}
