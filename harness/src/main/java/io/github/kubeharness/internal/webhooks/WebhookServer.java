package io.github.kubeharness.internal.webhooks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.github.kubeharness.KubeHarnessException;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;

/**
 * The HTTPS server the API server calls for webhooks under test: on 127.0.0.1 at a free port, with
 * a serving certificate from a CA of its own (its PEM is every configuration's {@code caBundle}).
 * Paths are mounted and unmounted as test classes come and go; every call is logged for the failure
 * report.
 */
public final class WebhookServer implements AutoCloseable {

  private static final String HOST = "127.0.0.1";

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
  private final Map<String, WebhookRoute> routes = new ConcurrentHashMap<>();
  // Seconds the API server waits for a path, from its configuration: a slower answer was too late.
  private final Map<String, Integer> timeouts = new ConcurrentHashMap<>();
  private final List<LoggedCall> calls = new ArrayList<>();
  // Calls being answered now: a handler slower than the API server's timeout shows up in a
  // report written while it still runs.
  private final Map<HttpExchange, LoggedCall> inFlight = new ConcurrentHashMap<>();
  private RunDirectory tlsFiles;

  private WebhookServer(TinyCa ca, TinyCa.Issued serving, HttpsServer server, ExecutorService ex) {
    this.ca = ca;
    this.serving = serving;
    this.server = server;
    this.executor = ex;
  }

  /** A started server on 127.0.0.1 and a free port. */
  public static WebhookServer start() {
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
      tls.init(TlsStores.presenting(serving, ca.certificate()).getKeyManagers(), null, null);
      HttpsServer server =
          HttpsServer.create(new InetSocketAddress(InetAddress.getByName(HOST), 0), 64);
      server.setHttpsConfigurator(new HttpsConfigurator(tls));
      server.setExecutor(executor);
      WebhookServer webhooks = new WebhookServer(ca, serving, server, executor);
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

  private void handle(HttpExchange exchange) throws IOException {
    Instant started = Instant.now();
    String path = exchange.getRequestURI().getPath();
    WebhookRoute route = routes.get(path);
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
    executor.shutdownNow();
    if (tlsFiles != null) {
      tlsFiles.close();
      tlsFiles = null;
    }
  }

  private record LoggedCall(String fullPath, WebhookCall call) {}
}
