package io.github.kubeharness.junit.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ComponentProcesses;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.Cluster;
import io.github.kubeharness.junit.ClusterControllers;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.FanOutController;
import io.github.kubeharness.junit.fixtures.MirrorControllerFactory;
import io.github.kubeharness.junit.fixtures.Widget;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Test classes with several clusters that fail, or are refused, on purpose. */
public final class MultiClusterScenarios {

  private MultiClusterScenarios() {}

  /** Fails after the fan-out reached the edge: each cluster's report shows its own objects. */
  @ControllerTest(
      backend = "local",
      clusters = {"hub", "edge-1"},
      crds = "src/test/resources/crds",
      controllers = FanOutController.class)
  public static class FailingHubEdge {
    KubernetesClient hub;

    @Cluster("edge-1")
    KubernetesClient edge;

    @Test
    void expectsTheEdgeToHoldWhatItNeverGets() {
      hub.resource(Widget.named("fanned", "to the edge")).create();
      eventually(edge.configMaps().withName("widget-fanned")).exists();
      assertThat(edge.configMaps().withName("never-written").get()).as("never-written").isNotNull();
    }
  }

  /** The hub/edge fan-out, to be run under a setting: the widget reaches the edge. */
  @ControllerTest(
      backend = "local",
      clusters = {"hub", "edge-1"},
      crds = "src/test/resources/crds",
      controllers = FanOutController.class)
  @ClusterControllers(cluster = "edge-1", controllers = MirrorControllerFactory.class)
  public static class HubEdgeFanOut {
    KubernetesClient hub;

    @Cluster("edge-1")
    KubernetesClient edge;

    @Test
    void theWidgetReachesTheEdge() {
      hub.resource(Widget.named("fanned", "to the edge")).create();
      eventually(edge.configMaps().withName("widget-fanned-mirror")).exists();
    }
  }

  /**
   * The same fan-out, recording what each cluster ran on while the class ran:
   * ClustersUnderSettingsIT runs it under a setting and checks what the setting promises from the
   * outside.
   */
  public static class HubEdgeRecorded extends HubEdgeFanOut {

    /** What the last run saw, by cluster name ({@code hub}, {@code edge-1}). */
    public static final Map<String, Seen> SEEN = new ConcurrentHashMap<>();

    /**
     * A cluster as it ran: its run directory, its processes by binary name, and its
     * kube-apiserver's arguments (where it keeps its objects).
     */
    public record Seen(Path run, Map<String, Long> processes, List<String> apiServerArguments) {}

    @Test
    void recordsItsClusters(ControlPlane first, @Cluster("edge-1") ControlPlane edgePlane) {
      SEEN.put("hub", seen(first));
      SEEN.put("edge-1", seen(edgePlane));
    }

    private static Seen seen(ControlPlane plane) {
      Path run = plane.logDirectory().orElseThrow();
      // Its own kube-apiserver: the one whose certificates are in its run (a further cluster's
      // apiserver names the first's run too, in the path of the etcd socket it shares).
      List<String> arguments =
          ProcessHandle.current()
              .descendants()
              .map(p -> p.info().arguments().map(List::of).orElse(List.of()))
              .filter(a -> a.contains("--cert-dir=" + run.resolve("pki") + "/"))
              .findFirst()
              .orElse(List.of());
      return new Seen(run, ComponentProcesses.of(plane), arguments);
    }
  }

  /** Asks for several clusters on the given backend. */
  public abstract static class WithClusters {
    @Test
    void test() {}
  }

  @ControllerTest(
      backend = "existing",
      clusters = {"hub", "edge-1"})
  public static class ClustersOnExisting extends WithClusters {}

  @ControllerTest(clusters = {"hub", "Edge_1"})
  public static class ClusterNameNotADnsLabel extends WithClusters {}

  @ControllerTest(clusters = {"hub", "edge-1"})
  @ClusterControllers(cluster = "edge-2", controllers = MirrorControllerFactory.class)
  public static class PlacedOnAnUndeclaredCluster extends WithClusters {}

  @ControllerTest(
      backend = "local",
      clusters = {"hub", "edge-1"})
  public static class InjectsAnUndeclaredCluster {
    @Test
    void test(@Cluster("edge-9") KubernetesClient client) {}
  }
}
