package io.github.kubeharness.sample.guestbook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RuntimeInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * The kubelet's view of the operator: {@code /healthz} (liveness) and {@code /readyz} (readiness),
 * served by the JDK's own HTTP server, answering from JOSDK's {@link RuntimeInfo}.
 *
 * <ul>
 *   <li>{@code /healthz} fails (503) only when the started operator has an unhealthy event source
 *       (an informer that stopped): a restart is then the cure. While starting it answers 200, so a
 *       slow cache sync does not get the pod killed.
 *   <li>{@code /readyz} answers 200 once the operator has started (caches synced, leader or
 *       standby) with every event source healthy, and 503 again as soon as shutdown begins.
 * </ul>
 */
final class HealthProbes implements AutoCloseable {

  private final HttpServer server;

  private HealthProbes(HttpServer server) {
    this.server = server;
  }

  /** Serves the probes on {@code address} (port 0: any free port). */
  static HealthProbes start(
      InetSocketAddress address, Operator operator, BooleanSupplier stopping) {
    HttpServer server;
    try {
      server = HttpServer.create(address, 0);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot serve health probes on "
              + address
              + ": "
              + e.getMessage()
              + ". Choose another with --health-probe-bind-address=[host]:port.",
          e);
    }
    server.createContext(
        "/healthz",
        exchange -> {
          String unhealthy =
              operator.getRuntimeInfo().isStarted() ? unhealthy(operator.getRuntimeInfo()) : "";
          respond(
              exchange, unhealthy.isEmpty() ? 200 : 503, unhealthy.isEmpty() ? "ok" : unhealthy);
        });
    server.createContext(
        "/readyz",
        exchange -> {
          String problem;
          if (stopping.getAsBoolean()) {
            problem = "stopping";
          } else if (!operator.getRuntimeInfo().isStarted()) {
            problem = "starting: informer caches not synced yet";
          } else {
            problem = unhealthy(operator.getRuntimeInfo());
          }
          respond(exchange, problem.isEmpty() ? 200 : 503, problem.isEmpty() ? "ok" : problem);
        });
    server.start();
    return new HealthProbes(server);
  }

  /** Where the probes are served, with the port actually bound. */
  InetSocketAddress address() {
    return server.getAddress();
  }

  private static String unhealthy(RuntimeInfo info) {
    if (info.allEventSourcesAreHealthy()) {
      return "";
    }
    Map<String, Object> bad = new TreeMap<>();
    info.unhealthyEventSources()
        .forEach(
            (controller, sources) ->
                sources.keySet().forEach(name -> bad.put(controller + "/" + name, "unhealthy")));
    return "unhealthy event sources: " + bad.keySet();
  }

  private static void respond(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = (body + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
