package io.github.kubeharness.internal.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.github.kubeharness.internal.controlplane.PemKeys;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.controlplane.TlsStores;
import io.github.kubeharness.internal.controlplane.WebhookClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook server over HTTPS, as kube-apiserver or any other local process reaches it: the
 * admission port answers only the client certificate the run's CA issued to kube-apiserver, the
 * conversion port only its own secret paths and no 404 of it names one; request bodies over {@link
 * WebhookServer#MAX_REQUEST_BYTES} are refused with 413, and calls are answered concurrently by at
 * most {@link WebhookServer#THREADS} threads. (The second local user's attempts, against a real API
 * server: {@code WebhookLockdownIT}.)
 */
class WebhookServerTest {

  private static final String PATH = "/test/validate";
  private static final String REVIEW =
      "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
          + "\"uid\":\"u-1\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"ConfigMap\"},"
          + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"configmaps\"},"
          + "\"name\":\"c\",\"namespace\":\"default\",\"operation\":\"CREATE\","
          + "\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
          + "\"metadata\":{\"name\":\"c\",\"namespace\":\"default\"}}}}";

  // The run's CA, as a control plane's: it issues kube-apiserver's webhook client certificate.
  private static final TinyCa RUN_CA = TinyCa.create("test-run-ca");
  private static final TinyCa.Issued API_SERVER = RUN_CA.issueClient(WebhookClient.USER, List.of());

  private final WebhookServer server = WebhookServer.start(RUN_CA.certificate());
  private final Instant started = Instant.now();

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void answersAReviewWithinTheLimit() throws Exception {
    server.mount(PATH, WebhookRoute.admission(PATH, WebhookServerTest::allow));
    HttpResponse<String> response = post(HttpRequest.BodyPublishers.ofString(REVIEW));
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("\"allowed\":true");
  }

  @Test
  void refusesABodyDeclaredLargerThanTheLimitWithoutReadingIt() throws Exception {
    server.mount(PATH, WebhookRoute.admission(PATH, WebhookServerTest::allow));
    try (SSLSocket socket =
        (SSLSocket) client().getSocketFactory().createSocket("127.0.0.1", server.port())) {
      OutputStream out = socket.getOutputStream();
      // Headers only: the answer must come before any of the body is sent.
      out.write(
          ("POST "
                  + PATH
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  + "Content-Length: "
                  + (WebhookServer.MAX_REQUEST_BYTES + 1)
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String answer = readAnswer(socket.getInputStream());
      assertThat(answer).startsWith("HTTP/1.1 413 ").contains("more than 8 MiB to " + PATH);
    }
    // The server logs a call once its answer is sent: the client may read it a moment before.
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(server.calls(started, path -> true))
                    .singleElement()
                    .satisfies(
                        call -> {
                          assertThat(call.outcome()).isEqualTo("413");
                          assertThat(call.error())
                              .get()
                              .asString()
                              .contains("refused a request body");
                        }));
  }

  @Test
  void refusesAStreamedBodyOnceItPassesTheLimit() throws Exception {
    server.mount(PATH, WebhookRoute.admission(PATH, WebhookServerTest::allow));
    // No Content-Length: sent chunked, so the server has to count what it reads.
    byte[] large = new byte[WebhookServer.MAX_REQUEST_BYTES + 1];
    HttpResponse<String> response =
        post(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(large)));
    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(response.body()).contains("more than 8 MiB");
  }

  @Test
  void answersCallsConcurrentlyWithABoundedNumberOfThreads() throws Exception {
    AtomicInteger inHandler = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    server.mount(
        PATH,
        WebhookRoute.admission(
            PATH,
            review -> {
              mostAtOnce.accumulateAndGet(inHandler.incrementAndGet(), Math::max);
              try {
                release.await(30, TimeUnit.SECONDS);
              } finally {
                inHandler.decrementAndGet();
              }
              return allow(review);
            }));
    int calls = WebhookServer.THREADS + 8;
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    HttpClient client = httpClient();
    for (int i = 0; i < calls; i++) {
      answers.add(
          client.sendAsync(request(HttpRequest.BodyPublishers.ofString(REVIEW)), ofString()));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (inHandler.get() < WebhookServer.THREADS && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(inHandler.get())
        .as("calls in their handler at once")
        .isEqualTo(WebhookServer.THREADS);
    // The other calls wait for a thread rather than getting one each.
    Thread.sleep(300);
    assertThat(mostAtOnce.get()).isEqualTo(WebhookServer.THREADS);
    release.countDown();
    for (CompletableFuture<HttpResponse<String>> answer : answers) {
      assertThat(answer.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
    assertThat(mostAtOnce.get()).isEqualTo(WebhookServer.THREADS);
  }

  @Test
  void refusesAnyCallerButKubeApiServerAtTheHandshake() throws Exception {
    server.mount(PATH, WebhookRoute.admission(PATH, WebhookServerTest::allow));
    TinyCa otherCa = TinyCa.create("another-ca");
    Map<String, KeyManager[]> strangers =
        Map.of(
            "no certificate",
            new KeyManager[0],
            "kube-apiserver's name from another CA",
            keys(otherCa.issueClient(WebhookClient.USER, List.of()), otherCa),
            "another identity of the run's CA (a test's user)",
            keys(RUN_CA.issueClient("alice", List.of("system:masters")), RUN_CA));
    strangers.forEach(
        (who, keys) -> {
          assertThat(attempt(keys)).as(who).startsWith("refused: ");
        });
    assertThat(server.calls(started, path -> true)).as("calls logged").isEmpty();
    assertThat(attempt(keys(API_SERVER, RUN_CA))).as("kube-apiserver").isEqualTo("200");
  }

  @Test
  void theConversionPortServesItsSecretPathsOnlyAndNamesNoneIn404s() throws Exception {
    String url =
        server.mountConversion(
            "gadgets.test.kubeharness.io",
            "/convert",
            WebhookRoute.raw("/convert", body -> "{\"converted\":true}"));
    assertThat(url).matches("https://127\\.0\\.0\\.1:\\d+/conversion/[A-Za-z0-9_-]{43}/.*");
    HttpClient anyCaller = httpClient(new KeyManager[0]);
    HttpResponse<String> served =
        anyCaller.send(
            HttpRequest.newBuilder(URI.create(url)).POST(body("{}")).build(), ofString());
    assertThat(served.statusCode()).isEqualTo(200);
    String guessed = url.replaceFirst("/conversion/[^/]+/", "/conversion/guessed/");
    for (String other : List.of(guessed, url.replaceFirst("/conversion/.*", "/"))) {
      HttpResponse<String> answer =
          anyCaller.send(
              HttpRequest.newBuilder(URI.create(other)).POST(body("{}")).build(), ofString());
      assertThat(answer.statusCode()).as(other).isEqualTo(404);
      assertThat(answer.body())
          .as(other)
          .doesNotContain("/convert")
          .doesNotContain("gadgets")
          .doesNotContain(PATH);
    }
    assertThat(server.calls(started, path -> true))
        .as("only the call to the mounted path is logged")
        .singleElement()
        .satisfies(call -> assertThat(call.path()).isEqualTo("/convert"));
  }

  // "200", or "refused: " and why: the handshake or the request failed.
  private String attempt(KeyManager[] keys) {
    try {
      return Integer.toString(
          httpClient(keys)
              .send(request(HttpRequest.BodyPublishers.ofString(REVIEW)), ofString())
              .statusCode());
    } catch (IOException e) {
      return "refused: " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static KeyManager[] keys(TinyCa.Issued issued, TinyCa issuer) {
    return TlsStores.presenting(issued, issuer.certificate()).getKeyManagers();
  }

  private static HttpRequest.BodyPublisher body(String text) {
    return HttpRequest.BodyPublishers.ofString(text);
  }

  private static AdmissionReview allow(AdmissionReview review) {
    AdmissionResponse response = new AdmissionResponse();
    response.setAllowed(true);
    review.setResponse(response);
    return review;
  }

  private HttpResponse<String> post(HttpRequest.BodyPublisher body) throws Exception {
    return httpClient().send(request(body), ofString());
  }

  private HttpRequest request(HttpRequest.BodyPublisher body) {
    return HttpRequest.newBuilder(URI.create(server.url(PATH)))
        .header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(60))
        .POST(body)
        .build();
  }

  private static HttpResponse.BodyHandler<String> ofString() {
    return HttpResponse.BodyHandlers.ofString();
  }

  private HttpClient httpClient() throws Exception {
    return httpClient(keys(API_SERVER, RUN_CA));
  }

  private HttpClient httpClient(KeyManager[] keys) {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .sslContext(client(keys))
        .connectTimeout(Duration.ofSeconds(10))
        .build();
  }

  /** kube-apiserver's client certificate; trusts the server's CA, as a caBundle makes it do. */
  private SSLContext client() {
    return client(keys(API_SERVER, RUN_CA));
  }

  private SSLContext client(KeyManager[] keys) {
    try {
      String pem =
          new String(Base64.getDecoder().decode(server.caBundle()), StandardCharsets.US_ASCII);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(keys, TlsStores.trusting(PemKeys.certificates(pem)).getTrustManagers(), null);
      return tls;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  // The status line, headers and a Content-Length body of one HTTP/1.1 answer.
  private static String readAnswer(InputStream in) throws Exception {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.append((char) b);
    }
    int length = 0;
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring("content-length:".length()).trim());
      }
    }
    return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }
}
