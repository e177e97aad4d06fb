package io.github.kubeharness.e2e;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.LocalPortForward;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** What only a cluster with a kubelet can show: running pods and traffic through a Service. */
final class KindChecks {

  private KindChecks() {}

  /** The Running pods of Deployment {@code name} whose Ready condition is True. */
  static List<Pod> readyPods(KubernetesClient client, String name) {
    Deployment deployment = client.apps().deployments().withName(name).require();
    return client
        .pods()
        .withLabels(deployment.getSpec().getSelector().getMatchLabels())
        .list()
        .getItems()
        .stream()
        .filter(pod -> "Running".equals(pod.getStatus().getPhase()))
        .filter(
            pod ->
                pod.getStatus().getConditions().stream()
                    .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .toList();
  }

  /**
   * GET / through {@code kubectl port-forward}'s mechanism on Service {@code name}: the API server
   * streams from a 127.0.0.1 port to one of the Service's pods. Returns the body of the first
   * answer with status 200 (the forward takes a moment to connect).
   */
  static String httpThroughService(KubernetesClient client, String name, int port)
      throws Exception {
    try (LocalPortForward forward = client.services().withName(name).portForward(port)) {
      HttpClient http = HttpClient.newHttpClient();
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + forward.getLocalPort() + "/"))
              .timeout(Duration.ofSeconds(5))
              .build();
      return await("an HTTP answer from Service " + name)
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .ignoreExceptions()
          .until(
              () -> http.send(request, HttpResponse.BodyHandlers.ofString()),
              r -> r.statusCode() == 200)
          .body();
    }
  }
}
