package io.github.kubeharness.internal.webhooks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;

/**
 * The webhook server's port for CRD conversion, apart from the admission port because
 * kube-apiserver calls conversion webhooks with no client certificate (apiextensions-apiserver's
 * {@code webhook_converter.go} resolves their credentials from an empty kubeconfig, and nothing
 * sets another): a port that asks for one would refuse the API server itself. Two other checks take
 * its place, both before a request is read or logged:
 *
 * <ul>
 *   <li>the caller's socket belongs to this JVM's user or to root ({@link LoopbackPeer}: the
 *       kernel's socket table, Linux) — kube-apiserver runs as one of them (a child process, or a
 *       container of the local Docker); another local user gets 403;
 *   <li>the path holds a random secret of this server's ({@code /conversion/<secret>/...}), which
 *       only the CRDs' {@code clientConfig.url} carries: readable by identities of the cluster that
 *       may read CRDs, never shown in a call, a report or an error of kube-harness's. Any other
 *       path gets a 404 that names none. On a system without socket tables (not Linux) this is the
 *       one check.
 * </ul>
 *
 * <p>Started on first use: most classes convert nothing, and a port nobody needs is not opened.
 */
final class ConversionPort implements AutoCloseable {

  static final String PREFIX = "/conversion/";

  /** Answers a request to a mounted conversion path (the {@link WebhookServer} serves it). */
  interface Served {
    void serve(HttpExchange exchange, String path, WebhookRoute route) throws IOException;
  }

  private final SSLContext tls;
  private final Executor executor;
  private final Served served;
  private final String secret = newSecret();
  private final OptionalLong ownUid = LoopbackPeer.ownUid();
  private final Map<String, WebhookRoute> routes = new ConcurrentHashMap<>();
  private HttpsServer server;

  ConversionPort(SSLContext tls, Executor executor, Served served) {
    this.tls = tls;
    this.executor = executor;
    this.served = served;
  }

  /** Serves {@code route} as the conversion webhook of CRD {@code crd}; returns its URL. */
  synchronized String mount(String crd, String path, WebhookRoute route) {
    String full = PREFIX + secret + "/" + crd + path;
    routes.put(full, route);
    return "https://" + WebhookServer.HOST + ":" + started().getAddress().getPort() + full;
  }

  /** The port, once started. */
  synchronized OptionalLong port() {
    return server == null ? OptionalLong.empty() : OptionalLong.of(server.getAddress().getPort());
  }

  private HttpsServer started() {
    if (server == null) {
      try {
        server =
            HttpsServer.create(
                new InetSocketAddress(InetAddress.getByName(WebhookServer.HOST), 0), 64);
      } catch (IOException e) {
        throw new KubeHarnessException(
            "Cannot start the conversion webhook port on "
                + WebhookServer.HOST
                + ": "
                + e.getMessage(),
            e);
      }
      server.setHttpsConfigurator(new HttpsConfigurator(tls));
      server.setExecutor(executor);
      server.createContext("/", this::handle);
      server.start();
    }
    return server;
  }

  private void handle(HttpExchange exchange) throws IOException {
    // Without socket tables (not Linux) the secret path is the one check.
    if (LoopbackPeer.available()) {
      OptionalLong caller =
          LoopbackPeer.uid(exchange.getRemoteAddress(), exchange.getLocalAddress());
      if (!allowed(caller)) {
        refuse(
            exchange,
            403,
            "kube-harness's conversion webhooks answer kube-apiserver only (a process of user "
                + ownUid.orElse(-1)
                + " or root); this connection "
                + (caller.isPresent() ? "is user " + caller.getAsLong() + "'s" : "has no owner"));
        return;
      }
    }
    String path = exchange.getRequestURI().getPath();
    WebhookRoute route = routes.get(path);
    if (route == null) {
      refuse(exchange, 404, "kube-harness serves no conversion webhook at this path");
      return;
    }
    served.serve(exchange, path, route);
  }

  private boolean allowed(OptionalLong caller) {
    return caller.isPresent()
        && (caller.getAsLong() == 0
            || (ownUid.isPresent() && caller.getAsLong() == ownUid.getAsLong()));
  }

  // Neither logged nor read: a request that is not the API server's leaves no trace in calls()
  // or a report, and its body is never taken in.
  private static void refuse(HttpExchange exchange, int status, String message) throws IOException {
    byte[] body = ("{\"message\":\"" + message + "\"}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.getResponseHeaders().set("Connection", "close");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static String newSecret() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.stop(0);
      server = null;
    }
  }
}
