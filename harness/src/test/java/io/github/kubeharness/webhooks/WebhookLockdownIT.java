package io.github.kubeharness.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.AnonymousHttp;
import io.github.kubeharness.BackendSensitive;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Stranger;
import io.github.kubeharness.internal.controlplane.PemKeys;
import io.github.kubeharness.internal.controlplane.TlsStores;
import io.github.kubeharness.internal.controlplane.WebhookClient;
import io.github.kubeharness.junit.fixtures.GadgetWebhooks;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.launch.WebhookServers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The webhook server against a real kube-apiserver and the second local user ({@link Stranger}):
 * the admission port refuses, at the TLS handshake, a caller with no certificate, with a
 * self-signed one made out to kube-apiserver's name, and with another identity of the run's CA; the
 * conversion port (kube-apiserver calls conversion webhooks without a certificate) refuses the
 * second user even on the exact path the CRD names; no 404 names a mounted path; and none of it
 * reaches {@code calls()}. The positive control, last: the API server's own admission and
 * conversion calls get through and are logged.
 */
@BackendSensitive
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebhookLockdownIT {

  private static final String NAMESPACE = "webhook-lockdown";
  private static final String VALIDATE = "/validate-test-kubeharness-io-v1-gadget";
  private static final String CRD = "gadgets.test.kubeharness.io";
  private static final String REVIEW =
      "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
          + "\"uid\":\"stranger\",\"kind\":{\"group\":\"test.kubeharness.io\",\"version\":\"v1\","
          + "\"kind\":\"Gadget\"},\"resource\":{\"group\":\"test.kubeharness.io\",\"version\":\"v1\","
          + "\"resource\":\"gadgets\"},\"name\":\"g\",\"namespace\":\"webhook-lockdown\","
          + "\"operation\":\"CREATE\",\"object\":{\"apiVersion\":\"test.kubeharness.io/v1\","
          + "\"kind\":\"Gadget\",\"metadata\":{\"name\":\"g\"},\"spec\":{\"replicas\":99}}}}";

  static ControlPlane controlPlane;
  static KubernetesClient client;
  static Webhooks webhooks;
  static AutoCloseable installed;

  @BeforeAll
  static void serve() {
    // The suite's backend: local, and container with host networking in .ci/run's second pass.
    controlPlane = ControlPlanes.create(ControlPlaneOptions.defaults());
    controlPlane.start();
    client = controlPlane.newClient();
    webhooks =
        WebhookServers.serve(
            controlPlane, List.of("src/test/resources/webhooks/gadgets"), new GadgetWebhooks());
    webhooks.installCrds(List.of("src/test/resources/crds-webhooks"), List.of());
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    // Returns once the API server has called the probe: it presented its certificate.
    installed = webhooks.install(NAMESPACE);
  }

  @AfterAll
  static void stop() throws Exception {
    if (installed != null) {
      installed.close();
    }
    if (webhooks != null) {
      webhooks.close();
    }
    if (client != null) {
      client.close();
    }
    if (controlPlane != null) {
      controlPlane.close();
    }
  }

  @Test
  @Order(1)
  void theAdmissionPortRefusesTheSecondUserAtTheHandshake() {
    String url = webhooks.url(VALIDATE);
    Stranger.Result none = Stranger.curl(url, "-d", REVIEW);
    assertRefusedAtTheHandshake("no certificate", none);

    // A certificate of the stranger's own making, made out to kube-apiserver's webhook name.
    Stranger.Result selfSigned =
        Stranger.run(
            "d=$(mktemp -d) && cd \"$d\" && openssl req -x509 -newkey ec -pkeyopt"
                + " ec_paramgen_curve:prime256v1 -nodes -days 1 -subj '/CN="
                + WebhookClient.USER
                + "' -keyout key.pem -out cert.pem >/dev/null 2>&1 && curl -sS -k --max-time 5"
                + " --cert cert.pem --key key.pem -w '\\n%{http_code}' -d '"
                + REVIEW
                + "' '"
                + url
                + "'; rc=$?; cd / && rm -rf \"$d\"; exit $rc");
    assertRefusedAtTheHandshake("a self-signed certificate", selfSigned);

    // A path nobody mounted: no answer at all, so no list of what is mounted.
    Stranger.Result unknown = Stranger.curl(url.replaceFirst("/set-.*", "/nothing-here"));
    assertRefusedAtTheHandshake("an unknown path", unknown);
    assertThat(unknown.output()).doesNotContain("/set-").doesNotContain("gadget");

    assertThat(webhooks.calls()).as("calls() after the second user's attempts").isEmpty();
  }

  @Test
  @Order(2)
  void theAdmissionPortRefusesAnotherIdentityOfTheRunsCa() throws Exception {
    // The same CA signs every user a test adds: the server asks for kube-apiserver's name too.
    HttpClient alice =
        presenting(controlPlane.addUser("alice", List.of("system:masters")).config());
    HttpRequest review =
        HttpRequest.newBuilder(URI.create(webhooks.url(VALIDATE)))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(REVIEW))
            .build();
    String outcome;
    try {
      outcome = "answered " + alice.send(review, HttpResponse.BodyHandlers.ofString()).statusCode();
    } catch (IOException refused) {
      outcome = "refused";
    }
    assertThat(outcome).as("a client certificate of the run's CA for alice").isEqualTo("refused");
    assertThat(webhooks.calls()).as("calls() after alice's attempt").isEmpty();
  }

  @Test
  @Order(3)
  void theConversionPortRefusesTheSecondUserAndNoAnswerNamesAPath() throws Exception {
    String url = conversionUrl();
    assertThat(url).contains("/conversion/");
    // The exact path the CRD names (its secret included): the owner of the socket decides.
    Stranger.Result exact = Stranger.curl(url, "-d", "{}");
    assertThat(exact.output()).as("second user, the CRD's conversion URL").endsWith("\n403");
    assertThat(exact.output()).doesNotContain("/convert").doesNotContain(CRD);
    Stranger.Result guessed =
        Stranger.curl(url.replaceFirst("/conversion/.*", "/conversion/guessed/x"), "-d", "{}");
    assertThat(guessed.output()).as("second user, a guessed path").endsWith("\n403");

    // This JVM's user passes the socket check; a path without the secret still gets a 404 that
    // names nothing mounted.
    HttpResponse<String> notFound =
        AnonymousHttp.client()
            .send(
                HttpRequest.newBuilder(
                        URI.create(url.replaceFirst("/conversion/[^/]+/", "/conversion/guessed/")))
                    .timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(notFound.statusCode()).isEqualTo(404);
    assertThat(notFound.body()).doesNotContain("/convert").doesNotContain(CRD);
    String secret = url.replaceFirst(".*/conversion/([^/]+)/.*", "$1");
    assertThat(notFound.body()).doesNotContain(secret);

    assertThat(webhooks.calls()).as("calls() after the conversion port's refusals").isEmpty();
  }

  @Test
  @Order(4)
  @SuppressWarnings("unchecked")
  void theApiServersOwnCallsGetThroughAndAreLogged() {
    var gadgets =
        client
            .genericKubernetesResources("test.kubeharness.io/v1", "Gadget")
            .inNamespace(NAMESPACE);
    gadgets.resource(GadgetWebhooks.gadget("v1", "g", Map.of("replicas", 1))).create();
    assertThat(
            (Map<Object, Object>) gadgets.withName("g").get().getAdditionalProperties().get("spec"))
        .as("mutated by the defaulter")
        .containsEntry("color", "blue");
    GenericKubernetesResource asAlpha =
        client
            .genericKubernetesResources("test.kubeharness.io/v1alpha1", "Gadget")
            .inNamespace(NAMESPACE)
            .withName("g")
            .get();
    assertThat((Map<Object, Object>) asAlpha.getAdditionalProperties().get("spec"))
        .as("converted by the conversion webhook")
        .containsEntry("size", 1);
    assertThat(webhooks.calls())
        .extracting(WebhookCall::path)
        .contains("/mutate-test-kubeharness-io-v1-gadget", VALIDATE, "/convert");
  }

  private static String conversionUrl() {
    return client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(CRD)
        .get()
        .getSpec()
        .getConversion()
        .getWebhook()
        .getClientConfig()
        .getUrl();
  }

  // curl's "000": no HTTP answer came; its error names the TLS failure.
  private static void assertRefusedAtTheHandshake(String attempt, Stranger.Result result) {
    assertThat(result.failed()).as("second user, %s: %s", attempt, result.output()).isTrue();
    assertThat(result.output()).as("second user, %s", attempt).endsWith("\n000");
    assertThat(result.output()).as("second user, %s", attempt).doesNotContain("\"allowed\"");
  }

  /** A client presenting the configuration's certificate and trusting any server. */
  private static HttpClient presenting(Config config) throws Exception {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(
        TlsStores.presenting(
                PemKeys.privateKey(decode(config.getClientKeyData())).orElseThrow(),
                PemKeys.certificates(decode(config.getClientCertData())))
            .getKeyManagers(),
        new TrustManager[] {TlsStores.anyServer()},
        null);
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls).build();
  }

  private static String decode(String data) {
    return new String(Base64.getDecoder().decode(data), StandardCharsets.US_ASCII);
  }
}
