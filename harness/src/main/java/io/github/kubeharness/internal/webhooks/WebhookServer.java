package io.github.kubeharness.internal.webhooks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.backend.HarnessControlPlane;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.controlplane.TlsStores;
import io.github.kubeharness.internal.process.PrivateFiles;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.webhooks.WebhookCall;
import io.github.kubeharness.webhooks.WebhookTls;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;

/**
 * The HTTPS server the API server calls for webhooks under test: on 127.0.0.1 at a free port, with
 * a serving certificate from a CA of its own (its PEM is every configuration's {@code caBundle}).
 * Its admission port answers kube-apiserver only: the TLS handshake needs the client certificate
 * the run's CA issued to it ({@link ApiServerOnly}); conversion webhooks, which kube-apiserver
 * calls without one, have a port of their own ({@link ConversionPort}). Paths are mounted and
 * unmounted as test classes come and go; every call is logged for the failure report.
 */
public final class WebhookServer implements AutoCloseable {

  static final String HOST = "127.0.0.1";
  private static final String ADMISSION_CONFIG_FLAG = "--admission-control-config-file";

  /**
   * The largest request body read. kube-apiserver takes request bodies of up to 3 MiB and etcd
   * stores objects of up to 1.5 MiB, so an AdmissionReview (the object, its old version and the
   * envelope, in JSON, which can be somewhat larger than the protobuf a client sent) or a
   * ConversionReview stays well below 8 MiB. Any local process can reach the port: none may make
   * the server hold more for one request.
   */
  static final int MAX_REQUEST_BYTES = 8 * 1024 * 1024;

  /**
   * Calls answered at once; more wait in the queue (holding a connection, not a thread).
   * kube-apiserver calls webhooks concurrently (the validating ones of a request in parallel, and
   * for every request in flight) and a handler may take up to its timeoutSeconds (at most 30): 32
   * is ample for the controllers and tests of one JVM, where an unbounded pool gave any local
   * caller a thread per request.
   */
  static final int THREADS = 32;

  private static final AtomicInteger THREAD_NUMBERS = new AtomicInteger();

  private final TinyCa ca;
  private final TinyCa.Issued serving;
  private final HttpsServer server;
  private final ExecutorService executor;
  private final ConversionPort conversion;
  private final Map<String, WebhookRoute> routes = new ConcurrentHashMap<>();
  // Seconds the API server waits for a path, from its configuration: a slower answer was too late.
  private final Map<String, Integer> timeouts = new ConcurrentHashMap<>();
  private final List<LoggedCall> calls = new ArrayList<>();
  // Calls being answered now: a handler slower than the API server's timeout shows up in a
  // report written while it still runs.
  private final Map<HttpExchange, LoggedCall> inFlight = new ConcurrentHashMap<>();
  private RunDirectory tlsFiles;

  private WebhookServer(
      TinyCa ca,
      TinyCa.Issued serving,
      HttpsServer server,
      ExecutorService ex,
      SSLContext conversionTls) {
    this.ca = ca;
    this.serving = serving;
    this.server = server;
    this.executor = ex;
    this.conversion = new ConversionPort(conversionTls, ex, this::serve);
  }

  /**
   * A started server for the webhooks of {@code controlPlane}, whose kube-apiserver kube-harness
   * configured to present its webhook client certificate; a control plane it did not configure is
   * refused, naming why and the fix.
   *
   * @param where the culprit, as the message names it
   */
  public static WebhookServer on(HarnessControlPlane controlPlane, String where) {
    X509Certificate apiServerCa =
        controlPlane
            .webhookClientCa()
            .orElseThrow(
                () ->
                    new KubeHarnessException(
                        where
                            + ": webhooks served by the test JVM answer kube-apiserver only, by"
                            + " the client certificate kube-harness gives it at start; the "
                            + controlPlane.backend().settingValue()
                            + " backend's API server was not started by kube-harness, so it has"
                            + " none. Use the local backend (or container with"
                            + " -Dkubeharness.network=host), or deploy the webhook server into"
                            + " the cluster."));
    for (String flag : controlPlane.options().extraApiServerFlags()) {
      if (flag.startsWith(ADMISSION_CONFIG_FLAG + "=") || flag.equals(ADMISSION_CONFIG_FLAG)) {
        throw new KubeHarnessException(
            where
                + ": extraApiServerFlags sets "
                + flag
                + ", which replaces the admission configuration that gives kube-apiserver its"
                + " client certificate for webhooks; the webhook server would refuse every call."
                + " Drop the flag to serve webhooks from the test JVM.");
      }
    }
    return start(apiServerCa);
  }

  /**
   * A started server on 127.0.0.1 and a free port, answering on its admission port only a client
   * certificate of {@code apiServerCa} made out to kube-apiserver's webhook client.
   */
  public static WebhookServer start(X509Certificate apiServerCa) {
    TinyCa ca = TinyCa.create("kube-harness-webhooks-ca");
    TinyCa.Issued serving =
        ca.issueServing("kube-harness-webhooks", List.of(HOST), List.of("localhost"));
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "kube-harness-webhook-" + THREAD_NUMBERS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    // An idle server keeps no threads.
    executor.allowCoreThreadTimeOut(true);
    try {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(
          TlsStores.presenting(serving, ca.certificate()).getKeyManagers(),
          new TrustManager[] {new ApiServerOnly(apiServerCa)},
          null);
      SSLContext conversionTls = SSLContext.getInstance("TLS");
      conversionTls.init(
          TlsStores.presenting(serving, ca.certificate()).getKeyManagers(), null, null);
      HttpsServer server =
          HttpsServer.create(new InetSocketAddress(InetAddress.getByName(HOST), 0), 64);
      server.setHttpsConfigurator(
          new HttpsConfigurator(tls) {
            @Override
            public void configure(HttpsParameters params) {
              // Without a certificate of the run's CA the handshake fails: nothing is read.
              SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
              parameters.setNeedClientAuth(true);
              params.setSSLParameters(parameters);
            }
          });
      server.setExecutor(executor);
      WebhookServer webhooks = new WebhookServer(ca, serving, server, executor, conversionTls);
      server.createContext("/", webhooks::handle);
      server.start();
      return webhooks;
    } catch (IOException | GeneralSecurityException e) {
      executor.shutdownNow();
      throw new KubeHarnessException(
          "Cannot start the webhook server on " + HOST + ": " + e.getMessage(), e);
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** The conversion port, once a conversion webhook is mounted. */
  OptionalLong conversionPort() {
    return conversion.port();
  }

  /** The URL the API server calls for {@code path} (a path this server serves). */
  String url(String path) {
    return "https://" + HOST + ":" + port() + path;
  }

  /** The CA certificate, base64-encoded PEM: a webhook configuration's {@code caBundle}. */
  String caBundle() {
    return Base64.getEncoder()
        .encodeToString(ca.certificatePem().getBytes(StandardCharsets.US_ASCII));
  }

  /** Serves {@code path} with {@code route}, replacing what served it before. */
  void mount(String path, WebhookRoute route) {
    routes.put(path, route);
  }

  /**
   * Serves {@code route} as the conversion webhook of CRD {@code crd} (for the whole JVM); returns
   * the URL for the CRD's {@code clientConfig}.
   */
  String mountConversion(String crd, String path, WebhookRoute route) {
    return conversion.mount(crd, path, route);
  }

  /** Notes how long the API server waits for {@code path}, to tell a late answer in the log. */
  void timeout(String path, int seconds) {
    timeouts.put(path, seconds);
  }

  /** Stops serving every path under {@code prefix}. */
  void unmount(String prefix) {
    routes.keySet().removeIf(path -> path.startsWith(prefix));
    timeouts.keySet().removeIf(path -> path.startsWith(prefix));
  }

  /** The calls logged since {@code since} whose full path passes {@code paths}. */
  List<WebhookCall> calls(Instant since, Predicate<String> paths) {
    List<WebhookCall> result = new ArrayList<>();
    synchronized (calls) {
      for (LoggedCall call : calls) {
        if (!call.call().time().isBefore(since) && paths.test(call.fullPath())) {
          result.add(call.call());
        }
      }
    }
    for (LoggedCall running : inFlight.values()) {
      WebhookCall call = running.call();
      if (!call.time().isBefore(since) && paths.test(running.fullPath())) {
        Duration took = Duration.between(call.time(), Instant.now());
        result.add(
            new WebhookCall(
                call.time(),
                call.path(),
                call.request(),
                "no answer yet",
                took,
                Optional.of(stillRunning(running.fullPath(), took))));
      }
    }
    return result;
  }

  /** Writes the certificate files on first use, owner-only, in a run directory of their own. */
  synchronized WebhookTls tls() {
    if (tlsFiles == null) {
      tlsFiles = RunDirectory.create(RunDirectory.defaultRoot());
    }
    return new WebhookTls(
        PrivateFiles.write(tlsFiles.path().resolve("ca.crt"), ca.certificatePem()),
        PrivateFiles.write(tlsFiles.path().resolve("tls.crt"), serving.certificatePem()),
        PrivateFiles.write(tlsFiles.path().resolve("tls.key"), pkcs8(serving)));
  }

  // PKCS#8 ("PRIVATE KEY"): what every TLS stack reads, the JDK's KeyFactory included.
  private static String pkcs8(TinyCa.Issued issued) {
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'})
            .encodeToString(issued.keyPair().getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
  }

  // Only kube-apiserver gets here (the handshake checked its certificate): a 404 may list what is
  // served, for the API server's error and the report.
  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    serve(exchange, path, routes.get(path));
  }

  private void serve(HttpExchange exchange, String path, WebhookRoute route) throws IOException {
    Instant started = Instant.now();
    Optional<byte[]> body = BoundedBody.read(exchange, MAX_REQUEST_BYTES);
    if (body.isEmpty()) {
      finish(exchange, path, route, started, WebhookRoute.Answer.tooLarge(path, MAX_REQUEST_BYTES));
      return;
    }
    String request = new String(body.get(), StandardCharsets.UTF_8);
    if (route != null && !route.probe()) {
      inFlight.put(
          exchange,
          new LoggedCall(
              path,
              new WebhookCall(
                  started,
                  route.displayPath(),
                  Describe.anyRequest(request),
                  "",
                  Duration.ZERO,
                  Optional.empty())));
    }
    WebhookRoute.Answer answer;
    try {
      answer =
          route == null
              ? WebhookRoute.Answer.notFound(path, routes.keySet())
              : route.answer(request);
    } finally {
      inFlight.remove(exchange);
    }
    finish(exchange, path, route, started, answer);
  }

  /** Sends {@code answer} and logs the call (kube-harness's own probes aside). */
  private void finish(
      HttpExchange exchange,
      String path,
      WebhookRoute route,
      Instant started,
      WebhookRoute.Answer answer)
      throws IOException {
    byte[] response = answer.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(answer.status(), response.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(response);
    }
    Duration took = Duration.between(started, Instant.now());
    if (route != null && route.probe()) {
      return; // kube-harness's own readiness calls are not the test's traffic
    }
    Optional<String> late = late(path, took);
    Optional<String> error =
        late.isPresent()
            ? Optional.of(answer.error().map(e -> late.get() + "\n" + e).orElse(late.get()))
            : answer.error();
    WebhookCall call =
        new WebhookCall(
            started,
            route == null ? path : route.displayPath(),
            answer.request(),
            answer.outcome(),
            took,
            error);
    synchronized (calls) {
      calls.add(new LoggedCall(path, call));
    }
  }

  // The API server's clock for the timeout started before the request reached us: a call still
  // running near its timeout has probably been given up already.
  private String stillRunning(String path, Duration took) {
    Integer timeout = timeouts.get(path);
    return "still running after "
        + took.toMillis()
        + " ms"
        + (timeout == null
            ? ""
            : "; the configuration's timeoutSeconds: "
                + timeout
                + (took.toMillis() > timeout * 1000L
                    ? " (the API server gave up and applied the failurePolicy)"
                    : ""));
  }

  private Optional<String> late(String path, Duration took) {
    Integer timeout = timeouts.get(path);
    if (timeout == null || took.toMillis() <= timeout * 1000L) {
      return Optional.empty();
    }
    return Optional.of(
        took.toMillis()
            + " ms, past the configuration's timeoutSeconds: "
            + timeout
            + " (the API server gave up and applied the failurePolicy)");
  }

  @Override
  public synchronized void close() {
    server.stop(0);
    conversion.close();
    executor.shutdownNow();
    if (tlsFiles != null) {
      tlsFiles.close();
      tlsFiles = null;
    }
  }

  private record LoggedCall(String fullPath, WebhookCall call) {}
}
