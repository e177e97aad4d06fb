package io.github.kubeharness.internal.faults;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerRequest;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Stale answers of {@code FaultRule.stale()}: the first read a rule strikes is passed on and its
 * answer remembered; the rule's later reads of the same URL get that answer again, however the
 * object changed since — what a client reading from a watch cache that lags behind etcd sees.
 *
 * <p>A snapshot is kept per {@link Caller} (identity and impersonation) and served only to that
 * caller: the API server authorized the read that made it for that identity alone. Another
 * identity's first read is its own, passed on and authorized (or refused) by the API server.
 */
final class StaleReads {

  private record Snapshot(int status, MultiMap headers, Buffer body, LocalTime taken) {}

  private static final Set<String> HOP_BY_HOP =
      Set.of("connection", "keep-alive", "transfer-encoding", "content-length", "upgrade");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  private final HttpClient upstream;
  private final int apiServerPort;
  private final Consumer<String> log;
  // (rule number, caller, request URI) -> the answer that caller's first read of it got
  private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();

  StaleReads(HttpClient upstream, int apiServerPort, Consumer<String> log) {
    this.upstream = upstream;
    this.apiServerPort = apiServerPort;
    this.log = log;
  }

  void answer(HttpServerRequest request, RequestInfo info, ActiveRule rule, Caller caller) {
    String key = rule.number() + "\n" + caller.key() + "\n" + request.uri();
    Snapshot snapshot = snapshots.get(key);
    if (snapshot != null) {
      log.accept(
          "stale     "
              + info
              + " answered as at "
              + TIME.format(snapshot.taken())
              + " for "
              + caller
              + "  ("
              + rule
              + ")");
      send(request, snapshot);
      return;
    }
    UpstreamRequest.of(upstream, apiServerPort, request)
        .compose(HttpClientRequest::send)
        .compose(
            (HttpClientResponse answer) -> answer.body().map(body -> remember(key, answer, body)))
        .onFailure(failure -> request.connection().close())
        .onSuccess(
            taken -> {
              log.accept(
                  "snapshot  "
                      + info
                      + " -> "
                      + taken.status()
                      + ": "
                      + caller
                      + "'s later reads get this answer  ("
                      + rule
                      + ")");
              send(request, taken);
            });
  }

  private Snapshot remember(String key, HttpClientResponse answer, Buffer body) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    answer
        .headers()
        .forEach(
            h -> {
              if (!HOP_BY_HOP.contains(h.getKey().toLowerCase(java.util.Locale.ROOT))) {
                headers.add(h.getKey(), h.getValue());
              }
            });
    Snapshot snapshot = new Snapshot(answer.statusCode(), headers, body, LocalTime.now());
    // Only a success is a snapshot worth repeating; an error passes as it came.
    if (answer.statusCode() / 100 == 2) {
      snapshots.putIfAbsent(key, snapshot);
    }
    return snapshot;
  }

  private static void send(HttpServerRequest request, Snapshot snapshot) {
    // A read has no body to keep: let the rest of the request (paused by UpstreamRequest, or while
    // its token was reviewed) be read, so that its connection moves on to the next one.
    request.resume();
    var response = request.response().setStatusCode(snapshot.status());
    response.headers().addAll(snapshot.headers());
    response.end(snapshot.body());
  }

  /** Drops the snapshots of a rule that ended. */
  void forget(ActiveRule rule) {
    snapshots.keySet().removeIf(key -> key.startsWith(rule.number() + "\n"));
  }
}
