package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.consistently;
import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.report.FailureReport;
import io.github.kubeharness.simulation.Simulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated profile: with kube-scheduler, the workload controllers and KWOK's fake node, the
 * workloads' own controllers write every status here — no test writes one — and {@link Simulation}
 * steers pods and nodes into the states an operator's degraded paths need. Local backend only (the
 * container suite runs this class on the local backend too).
 */
@ControllerTest(backend = "local", profile = "simulated")
class SimulatedProfileIT {

  KubernetesClient client;
  ControlPlane controlPlane;
  Simulation simulation;
  @TestNamespace String namespace;
  @TempDir Path reports;

  @Test
  void aDeploymentBecomesAvailableOnTheSimulatedNode() {
    assertThat(controlPlane.profile()).isEqualTo(Profile.SIMULATED);
    client.resource(deployment("web", 3)).create();

    Deployment available =
        eventually(client.apps().deployments().withName("web"))
            .hasCondition("Available", "True", "MinimumReplicasAvailable");
    assertThat(available.getStatus().getReadyReplicas()).isEqualTo(3);
    assertThat(client.pods().withLabel("app", "web").list().getItems())
        .hasSize(3)
        .allSatisfy(
            pod -> {
              assertThat(pod.getSpec().getNodeName()).isEqualTo("simulated-node-1");
              assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
              assertThat(pod.getStatus().getPodIP()).startsWith("10.244.");
            });
  }

  @Test
  void aStatefulSetScalesInOrder() {
    List<String> added = new CopyOnWriteArrayList<>();
    List<String> deleted = new CopyOnWriteArrayList<>();
    try (Watch watch = client.pods().withLabel("app", "db").watch(recording(added, deleted))) {
      client
          .resource(
              new StatefulSetBuilder()
                  .withNewMetadata()
                  .withName("db")
                  .endMetadata()
                  .withNewSpec()
                  .withReplicas(3)
                  .withServiceName("db")
                  .withNewSelector()
                  .withMatchLabels(Map.of("app", "db"))
                  .endSelector()
                  .withTemplate(template("db", Map.of()))
                  .endSpec()
                  .build())
          .create();

      eventually(client.apps().statefulSets().withName("db"))
          .satisfies(s -> assertThat(s.getStatus().getReadyReplicas()).isEqualTo(3));
      // OrderedReady: each pod is created only once the one before it is Ready ...
      assertThat(added).containsExactly("db-0", "db-1", "db-2");

      client.apps().statefulSets().withName("db").scale(1);

      eventually(client.apps().statefulSets().withName("db"))
          .satisfies(s -> assertThat(s.getStatus().getReplicas()).isEqualTo(1));
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(deleted).hasSize(2));
    }
    // ... and removed highest ordinal first, each once the one above it is gone.
    assertThat(deleted).containsExactly("db-2", "db-1");
  }

  @Test
  void aJobCompletes() {
    client.resource(job("once", Map.of())).create();

    Job job =
        eventually(client.batch().v1().jobs().withName("once")).hasCondition("Complete", "True");
    assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
    assertThat(client.pods().withLabel("job-name", "once").list().getItems())
        .singleElement()
        .satisfies(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded"));
  }

  @Test
  void aJobWhosePodFailsFailsAtItsBackoffLimit() {
    // The annotation in the template: every pod of this Job fails.
    client.resource(job("doomed", Map.of(Simulation.ANNOTATION, Simulation.FAIL))).create();

    Job job =
        eventually(client.batch().v1().jobs().withName("doomed"))
            .hasCondition("Failed", "True", "BackoffLimitExceeded");
    assertThat(job.getStatus().getFailed()).isEqualTo(1);
  }

  @Test
  void aPodMadeUnreadyLowersTheReadyCountUntilItIsReadyAgain() {
    client.resource(deployment("flaky", 2)).create();
    Resource<Deployment> deployment = client.apps().deployments().withName("flaky");
    eventually(deployment)
        .satisfies(d -> assertThat(d.getStatus().getReadyReplicas()).isEqualTo(2));
    String victim =
        client.pods().withLabel("app", "flaky").list().getItems().get(0).getMetadata().getName();

    simulation.pod(client.pods().withName(victim)).makeUnready();

    eventually(deployment)
        .satisfies(d -> assertThat(d.getStatus().getReadyReplicas()).isEqualTo(1));
    Pod unready = client.pods().withName(victim).get();
    assertThat(unready.getStatus().getPhase()).isEqualTo("Running");
    assertThat(ready(unready)).isFalse();
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(events(victim)).contains("Unhealthy"));

    simulation.pods(client.pods().withLabel("app", "flaky")).makeReady();

    eventually(deployment)
        .satisfies(d -> assertThat(d.getStatus().getReadyReplicas()).isEqualTo(2));
  }

  @Test
  void aCrashingPodShowsRestartsAndBackOffInTheFailureReport() throws Exception {
    client.resource(pod("crashy")).create();
    eventually(client.pods().withName("crashy")).satisfies(p -> assertThat(ready(p)).isTrue());

    simulation.pod(client.pods().withName("crashy")).crash();

    eventually(client.pods().withName("crashy"))
        .satisfies(
            p ->
                assertThat(p.getStatus().getContainerStatuses())
                    .singleElement()
                    .satisfies(
                        c -> {
                          assertThat(c.getRestartCount()).isEqualTo(1);
                          assertThat(c.getState().getWaiting().getReason())
                              .isEqualTo("CrashLoopBackOff");
                        }));
    FailureReport report =
        FailureReport.write(
            reports.resolve("crashy"),
            client,
            namespace,
            Instant.now(),
            Optional.empty(),
            List.of());
    assertThat(report.summary()).contains("1 unhealthy pod of 1");
    assertThat(Files.readString(report.directory().resolve("pods.txt")))
        .contains("Pod crashy", "restarts=1", "CrashLoopBackOff");
  }

  @Test
  void aRunningPodMadeToFailEndsFailedWithExitCode1() {
    client.resource(pod("doomed")).create();
    eventually(client.pods().withName("doomed")).satisfies(p -> assertThat(ready(p)).isTrue());

    simulation.pod(client.pods().withName("doomed")).fail();

    Pod failed =
        eventually(client.pods().withName("doomed"))
            .satisfies(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Failed"));
    assertThat(failed.getStatus().getContainerStatuses())
        .singleElement()
        .satisfies(c -> assertThat(c.getState().getTerminated().getExitCode()).isEqualTo(1));
    assertThat(ready(failed)).isFalse();
  }

  /** The annotation in a template: every pod of the workload starts running but never ready. */
  @Test
  void podsOfATemplateAnnotatedUnreadyRunButAreNeverReady() {
    client
        .resource(deployment("hidden", 2, Map.of(Simulation.ANNOTATION, Simulation.UNREADY)))
        .create();

    eventually(client.apps().deployments().withName("hidden"))
        .satisfies(d -> assertThat(d.getStatus().getUnavailableReplicas()).isEqualTo(2));
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(client.pods().withLabel("app", "hidden").list().getItems())
                    .hasSize(2)
                    .allSatisfy(
                        p -> {
                          assertThat(p.getStatus().getPhase()).isEqualTo("Running");
                          assertThat(p.getStatus().getContainerStatuses())
                              .singleElement()
                              .satisfies(c -> assertThat(c.getState().getRunning()).isNotNull());
                          assertThat(ready(p)).isFalse();
                          assertThat(events(p.getMetadata().getName())).contains("Unhealthy");
                        }));
    assertThat(client.apps().deployments().withName("hidden").get().getStatus().getReadyReplicas())
        .as("ready replicas")
        .isNull();
  }

  /** The annotation in a template: every pod of the workload starts crashing. */
  @Test
  void podsOfATemplateAnnotatedCrashRestartAndBackOff() {
    client
        .resource(deployment("crashing", 2, Map.of(Simulation.ANNOTATION, Simulation.CRASH)))
        .create();

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(client.pods().withLabel("app", "crashing").list().getItems())
                    .hasSize(2)
                    .allSatisfy(
                        p -> {
                          assertThat(ready(p)).isFalse();
                          assertThat(p.getStatus().getContainerStatuses())
                              .singleElement()
                              .satisfies(
                                  c -> {
                                    assertThat(c.getRestartCount()).isEqualTo(1);
                                    assertThat(c.getState().getWaiting().getReason())
                                        .isEqualTo("CrashLoopBackOff");
                                  });
                          assertThat(events(p.getMetadata().getName())).contains("BackOff");
                        }));
  }

  @Test
  void aServiceGetsTheReadyPodsAsEndpoints() {
    client.resource(deployment("api", 2)).create();
    client
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("api")
                .endMetadata()
                .withNewSpec()
                .withSelector(Map.of("app", "api"))
                .addNewPort()
                .withPort(80)
                .endPort()
                .endSpec()
                .build())
        .create();

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(readyEndpoints("api"))
                    .hasSize(2)
                    .allSatisfy(ip -> assertThat(ip).startsWith("10.244.")));
  }

  @Test
  void aCordonedNodeGetsNoNewPodsAndAnAddedNodeTakesThem() {
    String added = "simulated-node-extra";
    simulation.addNode(added);
    simulation.cordon("simulated-node-1");
    try {
      assertThat(simulation.nodes()).contains("simulated-node-1", added);
      client.resource(deployment("moved", 2)).create();

      eventually(client.apps().deployments().withName("moved"))
          .satisfies(d -> assertThat(d.getStatus().getReadyReplicas()).isEqualTo(2));
      assertThat(client.pods().withLabel("app", "moved").list().getItems())
          .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isEqualTo(added));
    } finally {
      simulation.uncordon("simulated-node-1");
      simulation.removeNode(added);
    }
    assertThat(simulation.nodes()).containsExactly("simulated-node-1");
  }

  @Test
  void podsWithoutAnOwnerStayReadyWhileNothingChanges() {
    client.resource(pod("steady")).create();
    eventually(client.pods().withName("steady")).satisfies(p -> assertThat(ready(p)).isTrue());
    consistently(client.pods().withName("steady")).satisfies(p -> assertThat(ready(p)).isTrue());
  }

  // --- fixtures ---

  private static Deployment deployment(String app, int replicas) {
    return deployment(app, replicas, Map.of());
  }

  private static Deployment deployment(
      String app, int replicas, Map<String, String> podAnnotations) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(app)
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withNewSelector()
        .withMatchLabels(Map.of("app", app))
        .endSelector()
        .withTemplate(template(app, podAnnotations))
        .endSpec()
        .build();
  }

  private static Job job(String name, Map<String, String> annotations) {
    PodTemplateSpec template = template(name, annotations);
    template.getMetadata().setLabels(null);
    template.getSpec().setRestartPolicy("Never");
    return new JobBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withBackoffLimit(0) // a retry would wait the Job controller's 10 s back-off
        .withTemplate(template)
        .endSpec()
        .build();
  }

  private static PodTemplateSpec template(String app, Map<String, String> annotations) {
    return new PodTemplateSpecBuilder()
        .withNewMetadata()
        .withLabels(Map.of("app", app))
        .withAnnotations(annotations)
        .endMetadata()
        .withNewSpec()
        .withContainers(container())
        .endSpec()
        .build();
  }

  private static Pod pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withContainers(container())
        .endSpec()
        .build();
  }

  /** No image is ever pulled: KWOK only writes the status a kubelet would. */
  private static Container container() {
    return new ContainerBuilder().withName("app").withImage("example.invalid/app:1").build();
  }

  private static boolean ready(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private List<String> events(String podName) {
    return client.v1().events().withField("involvedObject.name", podName).list().getItems().stream()
        .map(e -> e.getReason())
        .toList();
  }

  private List<String> readyEndpoints(String service) {
    return client
        .discovery()
        .v1()
        .endpointSlices()
        .withLabel("kubernetes.io/service-name", service)
        .list()
        .getItems()
        .stream()
        .map(EndpointSlice::getEndpoints)
        .filter(endpoints -> endpoints != null) // a slice made before any pod was ready
        .flatMap(List::stream)
        .filter(e -> Boolean.TRUE.equals(e.getConditions().getReady()))
        .flatMap(e -> e.getAddresses().stream())
        .toList();
  }

  private static Watcher<Pod> recording(List<String> added, List<String> deleted) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        if (action == Action.ADDED) {
          added.add(pod.getMetadata().getName());
        } else if (action == Action.DELETED) {
          deleted.add(pod.getMetadata().getName());
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }
}
