package io.github.kubeharness.internal.backend;

import static io.github.kubeharness.assertions.KubeAssertions.consistently;
import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.Lockdown;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.report.FailureReport;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kind backend behaves like the others (a namespace and client per test, eventual assertions)
 * and, unlike them, runs pods: a Deployment's pods turn Ready, a failing readiness probe keeps a
 * pod unready, a Job completes and its pod's log is readable. Tagged "kind": it needs the node
 * image ({@code make kind-image}) and the web-server image ({@code make web-image}); {@code
 * .ci/run} runs it.
 */
@Tag("kind")
@ControllerTest(backend = "kind")
class KindBackendIT {

  /** The test workload: a static file server (hack/kind/web) that can also print and exit. */
  static final String IMAGE = "kube-harness/guestbook-web:1";

  private static final Duration POD_START = Duration.ofMinutes(2);

  ControlPlane controlPlane;
  KubernetesClient client;
  @TestNamespace String namespace;
  @TempDir Path reports;

  @BeforeEach
  void loadTheWorkloadImage() {
    assertThat(controlPlane.backend()).isEqualTo(Backend.KIND);
    assertThat(controlPlane.profile()).isEqualTo(Profile.STANDARD);
    controlPlane.loadImage(IMAGE); // fast when the node has it already
  }

  /**
   * kind's API server is published on the host's 127.0.0.1 only (our cluster configuration's
   * apiServerAddress), the second local user reads no object from it, and the kubeconfig kind wrote
   * for this run is out of that user's reach.
   */
  @Test
  void theApiServerIsOnLoopbackOnlyAndTheSecondUserGetsNothing() throws Exception {
    int port = URI.create(controlPlane.apiServerUrl()).getPort();
    List<String> published = new ArrayList<>();
    for (String node : kindNodes()) {
      published.addAll(Lockdown.publishedPorts(node));
    }
    assertThat(published).anyMatch(p -> p.endsWith(":" + port));
    assertThat(published).as("kind's published ports").allMatch(p -> p.contains(" -> 127.0.0.1:"));
    assertThat(Lockdown.listenersOnPort(port)).isNotEmpty().allMatch(Lockdown::isLoopback);
    Lockdown.assertApiServerGivesTheStrangerNoObjects(controlPlane.apiServerUrl());
    Optional<Path> run = controlPlane.logDirectory();
    if (run.isPresent()) {
      Lockdown.assertStrangerReadsNothingIn(run.get());
    }
  }

  private static List<String> kindNodes() throws Exception {
    Process ps =
        new ProcessBuilder(
                "docker", "ps", "-q", "--no-trunc", "--filter", "label=io.x-k8s.kind.cluster")
            .start();
    List<String> ids = List.of(new String(ps.getInputStream().readAllBytes()).trim().split("\\s+"));
    assertThat(ps.waitFor()).isZero();
    return ids.stream().filter(id -> !id.isBlank()).toList();
  }

  @Test
  void aDeploymentsPodsRunAndTurnReady() {
    client
        .resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName("web")
                .endMetadata()
                .withNewSpec()
                .withReplicas(2)
                .withNewSelector()
                .withMatchLabels(Map.of("app", "web"))
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(Map.of("app", "web"))
                .endMetadata()
                .withNewSpec()
                .withContainers(web(80))
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();

    Deployment ready =
        eventually(client.apps().deployments().withName("web"))
            .within(POD_START)
            .satisfies(d -> assertThat(d.getStatus().getReadyReplicas()).isEqualTo(2));
    assertThat(ready.getStatus().getAvailableReplicas()).isEqualTo(2);
    assertThat(client.pods().withLabel("app", "web").list().getItems())
        .hasSize(2)
        .allSatisfy(pod -> assertThat(pod.getStatus().getPodIP()).startsWith("10.244."));
  }

  @Test
  void aPodWhoseReadinessProbeFailsRunsButStaysUnready() {
    // The server listens on 80; the probe asks 8080, where nothing answers.
    client
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("never-ready")
                .endMetadata()
                .withNewSpec()
                .withContainers(web(8080))
                .endSpec()
                .build())
        .create();

    eventually(client.pods().withName("never-ready"))
        .within(POD_START)
        .satisfies(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running"));
    consistently(client.pods().withName("never-ready"))
        .during(Duration.ofSeconds(5))
        .satisfies(pod -> assertThat(ready(pod)).isFalse());
  }

  @Test
  void aJobCompletesAndItsPodsLogIsReadable() {
    Job job =
        new JobBuilder()
            .withNewMetadata()
            .withName("say-hello")
            .endMetadata()
            .withNewSpec()
            .withBackoffLimit(0)
            .withNewTemplate()
            .withNewSpec()
            .withRestartPolicy("Never")
            .withContainers(
                new ContainerBuilder()
                    .withName("say")
                    .withImage(IMAGE)
                    .withImagePullPolicy("IfNotPresent")
                    .withArgs("-say", "hello from a kind node")
                    .build())
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    client.resource(job).create();

    eventually(client.batch().v1().jobs().withName("say-hello"))
        .within(POD_START)
        .satisfies(j -> assertThat(j.getStatus().getSucceeded()).isEqualTo(1));
    Pod pod = client.pods().withLabel("job-name", "say-hello").list().getItems().get(0);
    assertThat(client.pods().withName(pod.getMetadata().getName()).getLog())
        .contains("hello from a kind node");
  }

  @Test
  void theFailureReportShowsACrashingPodsStatusAndLog() throws Exception {
    // Exits at once, and the kubelet restarts it: the CrashLoopBackOff a broken image gives.
    client
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("crashing")
                .endMetadata()
                .withNewSpec()
                .withContainers(
                    new ContainerBuilder()
                        .withName("app")
                        .withImage(IMAGE)
                        .withImagePullPolicy("IfNotPresent")
                        .withArgs("-say", "config file missing, giving up")
                        .build())
                .endSpec()
                .build())
        .create();
    eventually(client.pods().withName("crashing"))
        .within(POD_START)
        .satisfies(
            pod ->
                assertThat(pod.getStatus().getContainerStatuses().get(0).getRestartCount())
                    .isPositive());

    FailureReport report =
        FailureReport.write(
            reports.resolve("crashing"),
            client,
            namespace,
            Instant.now(),
            Optional.empty(),
            List.of());

    assertThat(report.summary()).contains("1 unhealthy pod of 1").contains("crashing: app ");
    assertThat(Files.readString(report.directory().resolve("pods.txt")))
        // The kubelet reports the image normalized (docker.io/...).
        .contains("Pod crashing  phase=Running", "container app  image=", IMAGE, "restarts=")
        .contains("--- log of app")
        .contains("config file missing, giving up");
  }

  @Test
  void anImageThatWasNotLoadedFailsOnTheNodeAndIsNeverPulledFromOutside() {
    // Our node image's containerd knows one registry for every name: a closed port on its own
    // loopback (hack/kind/node/registry-hosts.toml). So this fails at once, with no DNS lookup.
    assertThat(((KindControlPlane) controlPlane).nodeImage())
        .as("this test needs kube-harness's node image (make kind-image)")
        .startsWith("kube-harness/kind-node:");
    client
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("not-loaded")
                .endMetadata()
                .withNewSpec()
                .withContainers(
                    new ContainerBuilder()
                        .withName("app")
                        .withImage("example.invalid/never-loaded:1")
                        .build())
                .endSpec()
                .build())
        .create();

    await()
        .atMost(POD_START)
        .untilAsserted(
            () ->
                assertThat(
                        client
                            .v1()
                            .events()
                            .withField("involvedObject.name", "not-loaded")
                            .list()
                            .getItems())
                    .anySatisfy(
                        e ->
                            assertThat(e.getMessage())
                                .contains("example.invalid/never-loaded:1")
                                .contains("127.0.0.1:1")
                                .contains("connection refused")));
  }

  /** The web server on port 80 (serving its root file system), probed on {@code probePort}. */
  private static Container web(int probePort) {
    return new ContainerBuilder()
        .withName("web")
        .withImage(IMAGE)
        .withImagePullPolicy("IfNotPresent")
        .withArgs("-dir", "/")
        .addNewPort()
        .withContainerPort(80)
        .endPort()
        .withNewReadinessProbe()
        .withNewHttpGet()
        .withPath("/")
        .withPort(new IntOrString(probePort))
        .endHttpGet()
        .withPeriodSeconds(1)
        .endReadinessProbe()
        .build();
  }

  private static boolean ready(Pod pod) {
    return pod.getStatus().getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
