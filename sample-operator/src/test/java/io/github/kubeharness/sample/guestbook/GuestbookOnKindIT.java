package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.LocalPortForward;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every {@link GuestbookBehaviour} test again on a real node (the kind backend), and what only a
 * node can show: its pods run, so {@code status.readyReplicas} and the {@code Ready} condition come
 * from the kubelet's readiness probes, not from a test writing Deployment status; the Service
 * serves the page. The web server is kube-harness's own image ({@code make web-image}: no nginx
 * image can be pulled here, and the node pulls from nowhere). Tagged "kind": {@code .ci/run} runs
 * it after {@code make kind-image}.
 */
// snippet:kind-backend (docs/kind.md)
@Tag("kind")
@ControllerTest(
    backend = "kind",
    crdClasses = Guestbook.class,
    reconcilers = GuestbookReconciler.class)
class GuestbookOnKindIT extends GuestbookBehaviour {

  static final String WEB_IMAGE = "kube-harness/guestbook-web:1";
  private static final Duration PODS = Duration.ofMinutes(2);

  ControlPlane controlPlane;

  @BeforeEach
  void loadTheWebServer() {
    controlPlane.loadImage(WEB_IMAGE);
  }

  // end-snippet

  @Override
  String image() {
    return WEB_IMAGE;
  }

  /**
   * The cluster's garbage collector was not restarted after the CRD was installed: it learns of
   * Guestbooks at its next discovery, within 30 s.
   */
  @Override
  Duration garbageCollectionTimeout() {
    return Duration.ofSeconds(60);
  }

  // snippet:kind-ready (docs/kind.md)
  @Test
  void becomesReadyWhenItsPodsDoAndServesItsMessage() throws Exception {
    create("hello", 1, "Hello from a real node!");

    Guestbook ready = eventually(guestbook("hello")).within(PODS).hasCondition("Ready", "True");
    assertThat(ready.getStatus().getReadyReplicas()).isEqualTo(1);
    assertThat(readyPods("hello")).hasSize(1);
    assertThat(page("hello")).contains("Hello from a real node!");
  }

  // end-snippet

  @Test
  void readyReplicasFollowTheRunningPodsWhenScaled() {
    create("scaled", 1, "scaling");
    eventually(guestbook("scaled")).within(PODS).hasCondition("Ready", "True");

    scale("scaled", 3);
    eventually(guestbook("scaled"))
        .within(PODS)
        .satisfies(
            g -> {
              assertThat(g.getStatus().getReadyReplicas()).isEqualTo(3);
              assertThat(g.getStatus().condition("Ready"))
                  .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("True"));
            });
    assertThat(readyPods("scaled")).hasSize(3);

    scale("scaled", 1);
    eventually(guestbook("scaled"))
        .within(PODS)
        .satisfies(g -> assertThat(g.getStatus().getReadyReplicas()).isEqualTo(1));
  }

  private void create(String name, int replicas, String message) {
    create(
        name,
        spec -> {
          spec.setReplicas(replicas);
          spec.setMessage(message);
        });
  }

  private void scale(String name, int replicas) {
    edit(name, spec -> spec.setReplicas(replicas));
  }

  private List<Pod> readyPods(String name) {
    var selector = client.apps().deployments().withName(name).require().getSpec().getSelector();
    return client.pods().withLabels(selector.getMatchLabels()).list().getItems().stream()
        .filter(
            pod ->
                pod.getStatus().getConditions().stream()
                    .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .toList();
  }

  /** GET / through the Service, by port-forward (the API server streams to one of its pods). */
  private String page(String name) throws Exception {
    try (LocalPortForward forward = client.services().withName(name).portForward(80)) {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + forward.getLocalPort() + "/"))
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);
      return response.body();
    }
  }
}
