package io.github.kubeharness.internal.faults;

import io.vertx.core.Future;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;

/**
 * A client's request made again to the API server on loopback, by the parts of the proxy that
 * answer or relay it themselves (stale reads, watch WebSockets): same method, URI and headers, the
 * identity headers already set by the caller.
 */
final class UpstreamRequest {

  private UpstreamRequest() {}

  /** {@code request} (paused here, so no body is lost) as a request to the API server, unsent. */
  static Future<HttpClientRequest> of(
      HttpClient upstream, int apiServerPort, HttpServerRequest request) {
    request.pause();
    RequestOptions options =
        new RequestOptions()
            .setMethod(request.method())
            .setHost("127.0.0.1")
            .setPort(apiServerPort)
            .setURI(request.uri());
    return upstream
        .request(options)
        .map(
            outgoing -> {
              request.headers().forEach(h -> outgoing.headers().add(h.getKey(), h.getValue()));
              return outgoing;
            });
  }
}
