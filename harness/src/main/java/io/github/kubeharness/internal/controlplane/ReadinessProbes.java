package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.HealthCheck;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * The readiness signals of etcd ({@code /health} says {@code "health":"true"}, over TLS with a
 * client certificate) and kube-apiserver ({@code /readyz} answers 200), for processes and
 * containers alike. HTTP/1.1 on purpose: the JDK client's HTTP/2 upgrade is answered with GOAWAY by
 * Go servers during start-up.
 */
public final class ReadinessProbes {

  // Plain HTTP (KWOK). Its TLS context trusts nothing and is never used, but without one the
  // JDK makes its default context, reading every public CA (~100 ms of a fresh JVM's start).
  private static final HttpClient PLAIN =
      httpsClient(null, TlsStores.trusting(List.of()).getTrustManagers()[0]);

  /**
   * The post-start hooks that only create objects an {@code EtcdSeed} (internal.backend) already
   * holds: each waits a fixed second before its first try, so on a seeded start they are the whole
   * wait, and leaving them out of readiness changes nothing a client can observe.
   */
  public static final List<String> SEEDED_HOOKS =
      List.of(
          "poststarthook/rbac/bootstrap-roles",
          "poststarthook/scheduling/bootstrap-system-priority-classes");

  private ReadinessProbes() {}

  /**
   * etcd at {@code clientUrl} (asked at each check: a container's mapped port is known only once it
   * runs) reports itself healthy, asked with the run's etcd client certificate: etcd refuses the
   * TLS handshake to anyone without one. One HTTP client for all the checks of this probe.
   */
  public static HealthCheck etcd(Supplier<String> clientUrl, EtcdTls tls) {
    HttpClient http =
        httpsClient(
            TlsStores.presenting(tls.client(), tls.ca().certificate()).getKeyManagers(),
            TlsStores.trusting(tls.ca().certificate()).getTrustManagers()[0]);
    return () -> {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(clientUrl.get() + "/health"))
                  .timeout(Duration.ofSeconds(1))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 && response.body().contains("\"health\":\"true\"");
    };
  }

  /**
   * etcd on the Unix socket {@code socket} reports itself healthy: one HTTP/1.1 request written by
   * hand, as the JDK's HTTP client speaks TCP only.
   */
  public static HealthCheck etcdSocket(Path socket) {
    byte[] request =
        "GET /health HTTP/1.1\r\nHost: etcd\r\nConnection: close\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    return () -> {
      if (!Files.exists(socket)) {
        // Said as an exception, so a start that times out reports it as its last check.
        throw new FileNotFoundException("etcd has not opened its socket " + socket + " yet");
      }
      try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
        channel.write(ByteBuffer.wrap(request));
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        while (channel.read(buffer) > 0 && answer.size() < 65536) {
          answer.write(buffer.array(), 0, buffer.position());
          buffer.clear();
        }
        String text = answer.toString(StandardCharsets.US_ASCII);
        return text.startsWith("HTTP/1.1 200") && text.contains("\"health\":\"true\"");
      }
    };
  }

  /** The probes of the kube-apiserver at {@code url} whose client CA is {@code ca}. */
  public static ApiServerProbes apiServer(String url, TinyCa ca) {
    return new ApiServerProbes(url, ca);
  }

  /**
   * The probes of one kube-apiserver, on one HTTP client that trusts only its CA and presents a
   * cluster-admin certificate of it (anonymous requests are refused; /readyz does not mind). Made
   * once per apiserver and reused, not per poll: a JDK client keeps its selector thread, and its
   * connections' file descriptors, until the garbage collector finds it.
   */
  public static final class ApiServerProbes {

    private final String url;
    private final HttpClient http;

    private ApiServerProbes(String url, TinyCa ca) {
      this.url = url;
      TinyCa.Issued admin = ca.issueClient("kube-harness-admin", List.of("system:masters"));
      this.http =
          httpsClient(
              TlsStores.presenting(admin, ca.certificate()).getKeyManagers(),
              TlsStores.trusting(ca.certificate()).getTrustManagers()[0]);
    }

    /**
     * {@code /readyz} answers 200, with {@code excluded} checks left out (e.g. {@link
     * #SEEDED_HOOKS}).
     */
    public HealthCheck readyz(List<String> excluded) {
      StringBuilder query = new StringBuilder();
      for (String check : excluded) {
        query.append(query.length() == 0 ? "?" : "&").append("exclude=").append(check);
      }
      return answersOk(http, URI.create(url + "/readyz" + query));
    }

    /**
     * {@code /healthz} answers 200: every post-start hook has finished, including the {@link
     * #SEEDED_HOOKS} that {@code /readyz} may leave out. This is what kube-controller-manager
     * checks before it starts its controllers.
     */
    public HealthCheck healthz() {
      return answersOk(http, URI.create(url + "/healthz"));
    }

    /** The apiserver has created the {@code default} namespace. */
    public HealthCheck defaultNamespace() {
      return answersOk(http, URI.create(url + "/api/v1/namespaces/default"));
    }
  }

  /**
   * kube-controller-manager or kube-scheduler on 127.0.0.1:{@code port} answers {@code /healthz}
   * with 200. Each serves a certificate it generated itself at start, so there is nothing to pin;
   * the probe only ever goes to a loopback port kube-harness chose.
   */
  public static HealthCheck componentHealthz(int port) {
    return answersOk(AnyServer.CLIENT, URI.create("https://127.0.0.1:" + port + "/healthz"));
  }

  /** KWOK's own server (plain HTTP) on 127.0.0.1:{@code port} answers {@code /healthz}. */
  public static HealthCheck kwok(int port) {
    URI healthz = URI.create("http://127.0.0.1:" + port + "/healthz");
    return () ->
        PLAIN
                .send(
                    HttpRequest.newBuilder(healthz).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode()
            == 200;
  }

  // One GET, answered 200 within 2 s.
  private static HealthCheck answersOk(HttpClient http, URI uri) {
    return () ->
        http.send(
                    HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode()
            == 200;
  }

  /** Made on first use: the minimal profile never asks a component's /healthz. */
  private static final class AnyServer {
    static final HttpClient CLIENT = httpsClient(null, TlsStores.anyServer());
  }

  private static HttpClient httpsClient(KeyManager[] identity, TrustManager trustManager) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(identity, new TrustManager[] {trustManager}, null);
      return HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .sslContext(context)
          .connectTimeout(Duration.ofSeconds(1))
          .build();
    } catch (GeneralSecurityException e) {
      throw new KubeHarnessException("Cannot build a TLS client: " + e, e);
    }
  }
}
