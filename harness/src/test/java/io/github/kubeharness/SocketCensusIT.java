package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ProcSockets.OpenSocket;
import io.github.kubeharness.SocketProbe.Answer;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.junit.fixtures.GadgetWebhooks;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.launch.WebhookServers;
import io.github.kubeharness.webhooks.Webhooks;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The socket census of the local backend (issue 43): every socket the run opened — etcd, the API
 * server, kube-controller-manager, kube-scheduler, KWOK (the simulated profile runs them all), the
 * fault proxy with a {@code stale()} rule that holds a snapshot of Secrets, and the webhook server
 * — found in {@code /proc} through this JVM's process tree, and tried by the second local user with
 * no credentials, {@code Bearer x} and a self-signed certificate. Each must refuse all three, and
 * admit the run's own credentials (the control). See {@link SocketCensus} for the table.
 */
class SocketCensusIT {

  static final String WEBHOOK_PATH = "/validate-test-kubeharness-io-v1-gadget";

  @Test
  void everySocketOfALocalRunRefusesASecondLocalUser(@TempDir Path own) throws Exception {
    long jvm = ProcessHandle.current().pid();
    // Sockets this JVM had before (other test classes' control planes): not this run's.
    Set<Long> before = inodes(ProcSockets.accepting(ProcSockets.processTree(jvm)));
    try (ControlPlane controlPlane =
        ControlPlanes.create(
            ControlPlaneOptions.builder()
                .withBackend(Backend.LOCAL)
                .withProfile(Profile.SIMULATED)
                .build())) {
      controlPlane.start();
      String namespace = "census";
      try (KubernetesClient admin = controlPlane.newClient();
          Webhooks webhooks =
              WebhookServers.serve(
                  controlPlane,
                  List.of("src/test/resources/webhooks/gadgets"),
                  new GadgetWebhooks())) {
        withASecret(admin, namespace);
        webhooks.installCrds(List.of("src/test/resources/crds-webhooks"), List.of());
        String staleSecrets = "/api/v1/namespaces/" + namespace + "/secrets?resourceVersion=0";
        controlPlane
            .faults()
            .respond(FaultRule.requests().verbs("list").resource("secrets").stale());
        try (AutoCloseable installed = webhooks.install(namespace)) {
          List<String> ownCertificate =
              CensusCredentials.ownClientCertificate(controlPlane.kubeconfig(), own);
          // The calls the controls made: any other entry in calls() is a stranger's.
          AtomicInteger controlCalls = new AtomicInteger();
          String conversion = conversionUrl(admin);
          SocketCensus census =
              SocketCensus.of("local")
                  .knowing(
                      KnownServers.apiServer(ownCertificate),
                      KnownServers.etcd(),
                      KnownServers.controlPlaneComponents(ownCertificate),
                      KnownServers.kwok(),
                      KnownServers.faultProxy(
                          port(controlPlane.faults().proxyUrl()), staleSecrets, ownCertificate),
                      KnownServers.webhookServer(
                          port(webhooks.url(WEBHOOK_PATH)),
                          URI.create(webhooks.url(WEBHOOK_PATH)).getRawPath(),
                          admissionReview(namespace),
                          () -> apiServerCalls(admin, webhooks, namespace, controlCalls)),
                      // The conversion port, tried at the CRD's own URL, its secret path included
                      // (a stranger who learned it is still not the socket's owner's user).
                      KnownServers.webhookServer(
                          port(conversion),
                          URI.create(conversion).getRawPath(),
                          "{}",
                          () -> apiServerConverts(admin, webhooks, namespace, controlCalls)));
          List<OpenSocket> sockets =
              ProcSockets.accepting(ProcSockets.processTree(jvm)).stream()
                  .filter(s -> !before.contains(s.inode()))
                  .toList();
          census.report(census.take(sockets));
          // Nor did a stranger's review reach the test's record of calls: each is about a Gadget
          // a control made (the API server converts some again later, on its own).
          assertThat(controlCalls.get()).as("the controls' calls").isPositive();
          assertThat(webhooks.calls())
              .as("webhook calls")
              .allSatisfy(
                  call ->
                      assertThat(call.toString())
                          .doesNotContain("stranger")
                          .containsAnyOf("census/census-", "census/converted-"));
        }
      }
    }
  }

  /** The control of the webhook server: the API server calls it for a Gadget's create. */
  static Answer apiServerCalls(
      KubernetesClient admin, Webhooks webhooks, String namespace, AtomicInteger controlCalls) {
    int calls = webhooks.calls().size();
    createGadget(admin, namespace, "census-" + calls);
    int made = webhooks.calls().size() - calls;
    controlCalls.addAndGet(made);
    return made > 0
        ? new Answer(0, 200, "the API server's call reached the handlers")
        : new Answer(0, 0, "the API server's call did not reach the handlers");
  }

  /**
   * The control of the conversion port: a Gadget stored as v1 read as v1alpha1, which the API
   * server converts by calling it.
   */
  static Answer apiServerConverts(
      KubernetesClient admin, Webhooks webhooks, String namespace, AtomicInteger controlCalls) {
    int calls = webhooks.calls().size();
    String name = "converted-" + calls;
    createGadget(admin, namespace, name);
    admin
        .genericKubernetesResources("test.kubeharness.io/v1alpha1", "Gadget")
        .inNamespace(namespace)
        .withName(name)
        .get();
    boolean converted =
        webhooks.calls().subList(calls, webhooks.calls().size()).stream()
            .anyMatch(call -> call.path().equals("/convert"));
    controlCalls.addAndGet(webhooks.calls().size() - calls);
    return converted
        ? new Answer(0, 200, "the API server's conversion call reached the handler")
        : new Answer(0, 0, "the API server's conversion call did not reach the handler");
  }

  private static void createGadget(KubernetesClient admin, String namespace, String name) {
    admin
        .genericKubernetesResources("test.kubeharness.io/v1", "Gadget")
        .inNamespace(namespace)
        .resource(GadgetWebhooks.gadget("v1", name, Map.of("replicas", 1)))
        .create();
  }

  /** The conversion webhook's URL the CRD was installed with (a secret path on its own port). */
  static String conversionUrl(KubernetesClient admin) {
    return admin
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName("gadgets.test.kubeharness.io")
        .get()
        .getSpec()
        .getConversion()
        .getWebhook()
        .getClientConfig()
        .getUrl();
  }

  /** An AdmissionReview for a Gadget's create, as the API server would send it. */
  static String admissionReview(String namespace) {
    return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
        + "\"uid\":\"00000000-0000-0000-0000-000000000043\","
        + "\"kind\":{\"group\":\"test.kubeharness.io\",\"version\":\"v1\",\"kind\":\"Gadget\"},"
        + "\"resource\":{\"group\":\"test.kubeharness.io\",\"version\":\"v1\",\"resource\":\"gadgets\"},"
        + "\"operation\":\"CREATE\",\"namespace\":\""
        + namespace
        + "\",\"name\":\"stranger\",\"userInfo\":{\"username\":\"kh-stranger\"},"
        + "\"object\":{\"apiVersion\":\"test.kubeharness.io/v1\",\"kind\":\"Gadget\","
        + "\"metadata\":{\"name\":\"stranger\",\"namespace\":\""
        + namespace
        + "\"},\"spec\":{\"replicas\":1}}}}";
  }

  static void withASecret(KubernetesClient admin, String namespace) {
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    admin
        .secrets()
        .inNamespace(namespace)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("census")
                .endMetadata()
                .addToStringData("password", "census-secret")
                .build())
        .create();
  }

  static int port(String url) {
    return URI.create(url).getPort();
  }

  static Set<Long> inodes(List<OpenSocket> sockets) {
    return sockets.stream().map(OpenSocket::inode).collect(Collectors.toSet());
  }
}
