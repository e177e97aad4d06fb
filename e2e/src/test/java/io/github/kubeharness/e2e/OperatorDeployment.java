package io.github.kubeharness.e2e;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Kustomize;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.controlplane.ControllerManagerRestart;
import io.github.kubeharness.internal.controlplane.Identities;
import io.github.kubeharness.internal.manifest.ManifestApplier;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.ManagedProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * `make deploy` without a kubelet: renders {@code sample-operator/config/default} with kubectl's
 * kustomize, applies all of it (namespace, CRD, RBAC, the Deployment object), then runs the
 * operator jar in place of the pod the Deployment would start — authenticated as the deployed
 * ServiceAccount with a TokenRequest token, with POD_NAMESPACE set as the downward API would — so
 * the real manifests and the real RBAC are what the e2e suite exercises.
 */
final class OperatorDeployment implements AutoCloseable {

  static final String NAMESPACE = "guestbook-system";
  static final String SERVICE_ACCOUNT = "guestbook-controller-manager";
  private static final Path SAMPLE_OPERATOR = Path.of("..", "sample-operator");

  private final ManagedProcess operator;
  private final int probePort;

  private OperatorDeployment(ManagedProcess operator, int probePort) {
    this.operator = operator;
    this.probePort = probePort;
  }

  static OperatorDeployment deploy(ControlPlane controlPlane, KubernetesClient admin)
      throws Exception {
    Path work = Files.createDirectories(Path.of("target", "e2e"));
    Path rendered = work.resolve("deploy.yaml");
    Files.writeString(rendered, Kustomize.render(SAMPLE_OPERATOR.resolve("config/default")));
    ManifestApplier.apply(admin, List.of(rendered.toString()), line -> {});
    if (controlPlane instanceof ControllerManagerRestart restartable) {
      restartable.restartControllerManager(); // so its garbage collector knows the Guestbook kind
    }

    String token = Identities.serviceAccountToken(admin, NAMESPACE, SERVICE_ACCOUNT);
    Path kubeconfig = work.resolve("operator.kubeconfig");
    Files.writeString(kubeconfig, tokenKubeconfig(admin.getConfiguration(), token));

    int probePort = FreePorts.next();
    ManagedProcess operator =
        new ManagedProcess(
            "guestbook-operator",
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                SAMPLE_OPERATOR.resolve("target/guestbook-operator.jar").toString(),
                "--health-probe-bind-address=127.0.0.1:" + probePort),
            work.resolve("operator.log"),
            Map.of(
                "KUBECONFIG", kubeconfig.toAbsolutePath().toString(), "POD_NAMESPACE", NAMESPACE));
    Files.deleteIfExists(work.resolve("operator.log"));
    operator.start(() -> probe(probePort, "/readyz") == 200, Duration.ofSeconds(60));
    return new OperatorDeployment(operator, probePort);
  }

  /** The admin's control plane (standard profile: GC is part of what the suite checks). */
  static ControlPlane controlPlane() {
    return ControlPlane.create(ControlPlaneOptions.builder().withProfile(Profile.STANDARD).build());
  }

  int probe(String path) throws Exception {
    return probe(probePort, path);
  }

  private static int probe(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(2))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  ManagedProcess process() {
    return operator;
  }

  /** Sends SIGTERM, as Kubernetes does when it stops a pod, and returns the exit code. */
  int terminate() throws InterruptedException {
    return operator.terminate(Duration.ofSeconds(30));
  }

  String log() throws Exception {
    return Files.readString(operator.logFile(), StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    operator.stop();
  }

  private static String tokenKubeconfig(Config admin, String token) {
    String ca = admin.getCaCertData();
    return String.join(
        "\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: e2e",
        "  cluster:",
        "    server: " + admin.getMasterUrl(),
        "    certificate-authority-data: " + ca,
        "users:",
        "- name: operator",
        "  user:",
        "    token: " + token,
        "contexts:",
        "- name: e2e",
        "  context: {cluster: e2e, user: operator}",
        "current-context: e2e",
        "");
  }
}
