package io.github.kubeharness.internal.provision;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback HTTP server for the provisioner's tests: serves what {@link #serve} put at a path, 404
 * for anything else. Stands in for the envtest release index and its archives.
 */
final class FixtureServer implements AutoCloseable {

  private final Map<String, byte[]> served = new ConcurrentHashMap<>();
  private final HttpServer server;

  FixtureServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          byte[] body = served.get(exchange.getRequestURI().getPath());
          try {
            if (body == null) {
              exchange.sendResponseHeaders(404, -1);
              return;
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            }
          } finally {
            exchange.close();
          }
        });
    server.start();
  }

  void serve(String path, byte[] body) {
    served.put(path, body);
  }

  void remove(String path) {
    served.remove(path);
  }

  /** {@code http://127.0.0.1:<port>}, without a trailing slash. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
