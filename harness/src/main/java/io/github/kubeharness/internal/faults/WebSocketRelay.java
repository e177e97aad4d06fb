package io.github.kubeharness.internal.faults;

import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.NetSocket;
import java.util.function.Consumer;

/**
 * Relays a WebSocket upgrade (fabric8 opens watches as WebSockets first; exec and port-forward use
 * them too) to kube-apiserver and pipes the two sockets together. Done here rather than by
 * vertx-http-proxy so that the proxy holds the sockets: an upgraded connection is no longer an HTTP
 * connection it could close, and {@code dropWatches()} must cut WebSocket watches too.
 */
final class WebSocketRelay {

  /** Both ends of a relayed WebSocket; closing it cuts the stream for the client and upstream. */
  record Relayed(NetSocket client, NetSocket upstream) {
    void close() {
      client.close();
      upstream.close();
    }
  }

  private final HttpClient upstream;
  private final int apiServerPort;

  WebSocketRelay(HttpClient upstream, int apiServerPort) {
    this.upstream = upstream;
    this.apiServerPort = apiServerPort;
  }

  static boolean isUpgrade(HttpServerRequest request) {
    return "websocket".equalsIgnoreCase(request.getHeader("Upgrade"));
  }

  /**
   * Sends the upgrade on (headers as they are, identity headers already set by the caller); on 101
   * pipes the sockets and hands them to {@code opened}, otherwise answers as the apiserver did.
   * When {@code gated}, only the client's side is piped: {@code opened} takes over the upstream
   * side (paused until then).
   */
  void relay(HttpServerRequest request, boolean gated, Consumer<Relayed> opened) {
    UpstreamRequest.of(upstream, apiServerPort, request)
        .compose(
            (HttpClientRequest outgoing) -> {
              // When either side closes the relayed socket, Vert.x fails this finished request
              // with "Connection was closed" and, with no handler, logs it at ERROR: noise in the
              // user's test output for a watch that simply ended.
              outgoing.exceptionHandler(failure -> {});
              return outgoing.connect();
            })
        .onFailure(failure -> request.connection().close())
        .onSuccess(answer -> answered(request, answer, gated, opened));
  }

  private static void answered(
      HttpServerRequest request,
      HttpClientResponse answer,
      boolean gated,
      Consumer<Relayed> opened) {
    if (answer.statusCode() != 101) {
      request.response().setStatusCode(answer.statusCode());
      request.response().headers().addAll(answer.headers());
      answer
          .body()
          .onComplete(body -> request.response().end(body.succeeded() ? body.result() : null));
      request.resume();
      return;
    }
    NetSocket upstreamSocket = answer.netSocket();
    if (gated) {
      // Nothing may be read before the gate's handler is in place: it would be lost.
      upstreamSocket.pause();
    }
    request.response().setStatusCode(101);
    request.response().headers().addAll(answer.headers());
    request
        .toNetSocket()
        .onFailure(failure -> upstreamSocket.close())
        .onSuccess(
            clientSocket -> {
              clientSocket.pipeTo(upstreamSocket);
              if (!gated) {
                upstreamSocket.pipeTo(clientSocket);
              }
              opened.accept(new Relayed(clientSocket, upstreamSocket));
            });
  }
}
