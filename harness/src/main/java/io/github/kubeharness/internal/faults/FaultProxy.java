package io.github.kubeharness.internal.faults;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.controlplane.TlsStores;
import io.github.kubeharness.internal.process.FreePorts;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.TrustOptions;
import io.vertx.httpproxy.HttpProxy;
import io.vertx.httpproxy.ProxyOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reverse proxy on 127.0.0.1 between the controllers and kube-apiserver that injects faults
 * (Vert.x's {@code vertx-http-proxy}; see docs/faults.md for why a library).
 *
 * <p>Nobody gets in who could not reach the API server itself: every request is authenticated
 * before any rule sees it ({@link CallerIdentity}) — a client certificate of the run's CA, or a
 * bearer token kube-apiserver confirms with a TokenReview. Anything else is answered 401 with a
 * {@code Status} body and touches no rule, hit count, seeded draw or log line. A certificate's name
 * and groups go on as {@code X-Remote-User}/{@code X-Remote-Group}, the proxy authenticating itself
 * to the apiserver as a front proxy (its own certificate from the front-proxy CA, the apiserver's
 * {@code --requestheader-*} flags); a token goes on untouched, and the API server authorizes every
 * request it is sent. The one answer the proxy gives from memory, a {@code stale()} snapshot, is
 * kept per identity and served only to the identity whose read the API server answered ({@link
 * StaleReads}).
 */
public final class FaultProxy implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final int LISTEN_ATTEMPTS = 3;

  private final Vertx vertx;
  private final HttpClient upstream;
  private final HttpProxy proxy;
  private final WebSocketRelay webSockets;
  private final StaleReads staleReads;
  private final CallerIdentity callers;
  private final HttpServerOptions serverOptions;
  private final FaultLog log = new FaultLog();
  private final ControllerTraffic traffic = new ControllerTraffic();
  private final WatchGate watchGate = new WatchGate(log::add, traffic::delivered);
  private final List<ActiveRule> rules = new CopyOnWriteArrayList<>();
  private final AtomicInteger ruleNumbers = new AtomicInteger();
  private final Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
  // Connections carrying an HTTP watch now, with the watch's namespace ("" for all namespaces).
  private final Map<HttpConnection, String> watches = new ConcurrentHashMap<>();
  // Relayed WebSockets, with the namespace of the watch they carry (empty: not a watch).
  private final Map<WebSocketRelay.Relayed, Optional<String>> relayed = new ConcurrentHashMap<>();
  private HttpServer server;
  private int port;

  private FaultProxy(Pki pki, int apiServerPort) {
    TinyCa ca = pki.ca();
    vertx =
        Vertx.vertx(
            new VertxOptions()
                .setUseDaemonThread(true)
                .setEventLoopPoolSize(2)
                .setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1));
    upstream =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setSsl(true)
                .setTrustOptions(TrustOptions.wrap(TlsStores.trusting(ca.certificate())))
                .setKeyCertOptions(
                    KeyCertOptions.wrap(
                        TlsStores.presenting(
                            pki.frontProxyClient(), pki.frontProxyCa().certificate())))
                .setMaxPoolSize(1000)
                .setMaxWebSockets(1000));
    proxy =
        HttpProxy.reverseProxy(new ProxyOptions().setSupportWebSocket(false), upstream)
            .origin(apiServerPort, "127.0.0.1");
    webSockets = new WebSocketRelay(upstream, apiServerPort);
    staleReads = new StaleReads(upstream, apiServerPort, log::add);
    callers = new CallerIdentity(ca.certificate(), TokenReviews.of(vertx, ca, apiServerPort));
    TinyCa.Issued serving =
        ca.issueServing("kube-harness-fault-proxy", List.of("127.0.0.1"), List.of("localhost"));
    serverOptions =
        new HttpServerOptions()
            .setHost("127.0.0.1")
            .setSsl(true)
            .setKeyCertOptions(KeyCertOptions.wrap(TlsStores.presenting(serving, ca.certificate())))
            .setTrustOptions(TrustOptions.wrap(callers.handshakeTrust()))
            .setClientAuth(ClientAuth.REQUEST)
            .setReuseAddress(true);
  }

  /** Starts the proxy in front of the apiserver on 127.0.0.1:{@code apiServerPort}. */
  static FaultProxy start(Pki pki, int apiServerPort) {
    FaultProxy faultProxy = new FaultProxy(pki, apiServerPort);
    try {
      faultProxy.listenOnFreePort();
      return faultProxy;
    } catch (RuntimeException e) {
      faultProxy.close();
      throw e;
    }
  }

  String url() {
    return "https://127.0.0.1:" + port;
  }

  private void listenOnFreePort() {
    for (int attempt = 1; ; attempt++) {
      port = FreePorts.next();
      try {
        listen();
        return;
      } catch (KubeHarnessException e) {
        if (attempt == LISTEN_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private synchronized void listen() {
    HttpServer created =
        vertx
            .createHttpServer(serverOptions)
            .connectionHandler(this::track)
            .requestHandler(this::handle);
    await(created.listen(port, "127.0.0.1"), "listen on 127.0.0.1:" + port);
    server = created;
  }

  private void track(HttpConnection connection) {
    connections.add(connection);
    connection.closeHandler(
        closed -> {
          connections.remove(connection);
          watches.remove(connection);
        });
  }

  // Authentication first: a request that proves no identity of this cluster never reaches a rule.
  private void handle(HttpServerRequest request) {
    Future<Caller> caller = callers.authenticate(request);
    if (caller.isComplete()) {
      admitted(request, caller);
      return;
    }
    // A token under review: hold the body, and go on in this request's context.
    Context context = vertx.getOrCreateContext();
    request.pause();
    caller.onComplete(reviewed -> context.runOnContext(go -> admitted(request, caller)));
  }

  private void admitted(HttpServerRequest request, Future<Caller> caller) {
    if (caller.failed()) {
      CallerRefused refused =
          caller.cause() instanceof CallerRefused r
              ? r
              : new CallerRefused(500, "InternalError", caller.cause().toString());
      StatusAnswer.send(
          request,
          refused.status(),
          refused.reason(),
          "kube-harness fault proxy: " + refused.getMessage(),
          null);
      return;
    }
    RequestInfo info = RequestInfo.of(request.method().name(), request.path(), request.query());
    for (ActiveRule rule : rules) {
      if (rule.strikes(info)) {
        strike(request, info, rule, caller.result());
        return;
      }
    }
    forward(request, info);
  }

  private void strike(HttpServerRequest request, RequestInfo info, ActiveRule rule, Caller caller) {
    FaultRule.Action action = rule.rule().action().orElseThrow();
    Duration duration = rule.rule().duration();
    if (action == FaultRule.Action.STALE) {
      staleReads.answer(request, info, rule, caller);
      return;
    }
    if (action == FaultRule.Action.DELAY) {
      log.add("delayed   " + info + " by " + duration.toMillis() + " ms  (" + rule + ")");
      request.pause();
      vertx.setTimer(duration.toMillis(), timer -> forward(request, info));
      return;
    }
    log.add("answered  " + info + " with " + action.status() + "  (" + rule + ")");
    traffic.answered(info, request.path(), action.status());
    StatusAnswer.send(
        request,
        action.status(),
        action.reason(),
        "kube-harness injected " + action.status() + " " + action.reason() + " (" + rule + ")",
        action == FaultRule.Action.THROTTLE ? duration : null);
  }

  private void forward(HttpServerRequest request, RequestInfo info) {
    long started = System.nanoTime();
    if (info.isWatch()) {
      log.add("watching  " + info);
      traffic.watching(info, request.path());
    }
    if (WebSocketRelay.isUpgrade(request)) {
      webSockets.relay(
          request,
          info.isWatch(),
          socket -> {
            relayed.put(socket, info.isWatch() ? Optional.of(info.namespace()) : Optional.empty());
            Runnable forget = info.isWatch() ? watchGate.relay(info, socket) : () -> {};
            socket
                .client()
                .closeHandler(
                    closed -> {
                      relayed.remove(socket);
                      forget.run();
                    });
          });
      return;
    }
    HttpConnection connection = request.connection();
    if (info.isWatch()) {
      watches.put(connection, info.namespace());
    }
    request
        .response()
        .endHandler(
            ended -> {
              if (info.isWatch()) {
                watches.remove(connection);
              } else {
                traffic.answered(info, request.path(), request.response().getStatusCode());
              }
              log.add(
                  "passed    "
                      + info
                      + " -> "
                      + request.response().getStatusCode()
                      + " ("
                      + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)
                      + " ms)");
            });
    proxy.handle(request);
  }

  /** Ends the watches of {@code namespace} (every watch when null); returns how many. */
  int dropWatches(String namespace) {
    List<Runnable> dropped = new ArrayList<>();
    watches.forEach(
        (connection, watched) -> {
          if (namespace == null || namespace.equals(watched)) {
            dropped.add(connection::close);
          }
        });
    relayed.forEach(
        (socket, watched) -> {
          if (watched.isPresent() && (namespace == null || namespace.equals(watched.get()))) {
            dropped.add(socket::close);
          }
        });
    dropped.forEach(Runnable::run);
    log.add(
        "dropped   "
            + dropped.size()
            + " watch"
            + (dropped.size() == 1 ? "" : "es")
            + (namespace == null ? "" : " in namespace " + namespace));
    return dropped.size();
  }

  ActiveRule add(FaultRule rule, String scope, long seed) {
    ActiveRule active = new ActiveRule(ruleNumbers.incrementAndGet(), rule, scope, this, seed);
    rules.add(active);
    log.add("injected  " + active);
    return active;
  }

  void remove(ActiveRule rule) {
    if (rules.remove(rule)) {
      staleReads.forget(rule);
      log.add("removed   " + rule + " after " + rule.hits() + " hits");
    }
  }

  /** Removes the rules injected in {@code scope} (every rule when null). */
  void clear(String scope) {
    for (ActiveRule rule : rules) {
      if (scope == null || scope.equals(rule.scope())) {
        remove(rule);
      }
    }
  }

  WatchGate watchGate() {
    return watchGate;
  }

  ControllerTraffic traffic() {
    return traffic;
  }

  void note(String text) {
    log.add(text);
  }

  List<String> log(Instant since) {
    return log.since(since);
  }

  /** Stops listening and closes every connection, as a stopped apiserver's port would. */
  public synchronized void suspend() {
    if (server != null) {
      await(server.close(), "close the fault proxy's port");
      server = null;
    }
    connections.forEach(HttpConnection::close);
    relayed.keySet().forEach(WebSocketRelay.Relayed::close);
  }

  /** Listens again on the same port. */
  public synchronized void resume() {
    if (server == null) {
      listen();
    }
  }

  @Override
  public void close() {
    try {
      suspend();
    } finally {
      await(vertx.close(), "stop the fault proxy");
    }
  }

  private static <T> T await(Future<T> future, String what) {
    try {
      return future
          .toCompletionStage()
          .toCompletableFuture()
          .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubeHarnessException("Interrupted while the fault proxy tried to " + what, e);
    } catch (Exception e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new KubeHarnessException(
          "The fault proxy could not " + what + ": " + cause.getMessage(), cause);
    }
  }
}
