package io.github.kubeharness.e2e;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.tools.Kustomize;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * `make deploy` without a kubelet: renders {@code sample-operator/config/default} with kubectl's
 * kustomize, applies all of it (namespace, CRD, RBAC, the Deployment object), then runs the
 * operator jar in place of the pod the Deployment would start — authenticated as the deployed
 * ServiceAccount with a TokenRequest token, with POD_NAMESPACE set as the downward API would — so
 * the real manifests and the real RBAC are what the e2e suite exercises. Its webhooks too: with no
 * pod behind the webhook Service, the configurations and the CRD's conversion are pointed at the
 * operator process on 127.0.0.1 (the one change to the manifests), and the operator serves them
 * with the certificate it makes and injects itself, as in a cluster.
 */
final class OperatorDeployment implements AutoCloseable {

  static final String NAMESPACE = "guestbook-system";
  static final String SERVICE_ACCOUNT = "guestbook-controller-manager";
  private static final Path SAMPLE_OPERATOR = Path.of("..", "sample-operator");

  private final Process operator;
  private final Path log;
  private final int probePort;

  private OperatorDeployment(Process operator, Path log, int probePort) {
    this.operator = operator;
    this.log = log;
    this.probePort = probePort;
  }

  static OperatorDeployment deploy(ControlPlane controlPlane) throws Exception {
    Path work = Files.createDirectories(Path.of("target", "e2e"));
    Path rendered = work.resolve("deploy.yaml");
    int webhookPort = freePort();
    Files.writeString(
        rendered,
        webhooksAt(
            Kustomize.render(SAMPLE_OPERATOR.resolve("config/default")),
            "https://127.0.0.1:" + webhookPort));
    controlPlane.apply(List.of(rendered.toString()));

    Path kubeconfig = work.resolve("operator.kubeconfig");
    Files.writeString(
        kubeconfig, controlPlane.serviceAccountKubeconfig(NAMESPACE, SERVICE_ACCOUNT));

    int probePort = freePort();
    Path log = work.resolve("operator.log");
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                SAMPLE_OPERATOR.resolve("target/guestbook-operator.jar").toString(),
                "--health-probe-bind-address=127.0.0.1:" + probePort,
                "--webhook-bind-address=127.0.0.1:" + webhookPort)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("KUBECONFIG", kubeconfig.toAbsolutePath().toString());
    builder.environment().put("POD_NAMESPACE", NAMESPACE);
    Process operator = builder.start();
    OperatorDeployment deployment = new OperatorDeployment(operator, log, probePort);
    try {
      await("the operator's /readyz")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .failFast("the operator exited; see " + log, () -> !operator.isAlive())
          .until(() -> deployment.probe("/readyz") == 200);
    } catch (RuntimeException e) {
      deployment.close();
      throw e;
    }
    return deployment;
  }

  /**
   * The rendered manifests with every webhook client (admission configurations, the CRD's
   * conversion) calling {@code base + path} instead of the Service: what a pod behind it would
   * serve, the operator process serves on loopback.
   */
  static String webhooksAt(String rendered, String base) throws IOException {
    YAMLMapper yaml = new YAMLMapper();
    List<String> documents = new ArrayList<>();
    try (MappingIterator<ObjectNode> it = yaml.readerFor(ObjectNode.class).readValues(rendered)) {
      while (it.hasNextValue()) {
        ObjectNode document = it.nextValue();
        if (document == null) {
          continue;
        }
        List<JsonNode> clients = new ArrayList<>();
        document.path("webhooks").forEach(w -> clients.add(w.path("clientConfig")));
        clients.add(document.path("spec").path("conversion").path("webhook").path("clientConfig"));
        for (JsonNode client : clients) {
          if (client instanceof ObjectNode config && config.has("service")) {
            String path = config.path("service").path("path").asText("/");
            config.remove("service");
            config.put("url", base + path);
          }
        }
        documents.add(yaml.writeValueAsString(document));
      }
    }
    return String.join("", documents);
  }

  /** The admin's control plane (standard profile: GC is part of what the suite checks). */
  static ControlPlane controlPlane() {
    return ControlPlanes.create(
        ControlPlaneOptions.builder().withProfile(Profile.STANDARD).build());
  }

  int probe(String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + probePort + path))
                .timeout(Duration.ofSeconds(2))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  /** Sends SIGTERM, as Kubernetes does when it stops a pod, and returns the exit code. */
  int terminate() throws InterruptedException {
    operator.destroy();
    if (!operator.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("the operator did not exit within 30 s of SIGTERM; see " + log);
    }
    return operator.exitValue();
  }

  String log() throws Exception {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    operator.destroy();
    try {
      if (!operator.waitFor(10, TimeUnit.SECONDS)) {
        operator.destroyForcibly();
      }
    } catch (InterruptedException e) {
      operator.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
