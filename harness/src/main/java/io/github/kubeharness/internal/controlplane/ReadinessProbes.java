package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.HealthCheck;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The readiness signals of etcd ({@code /health} says {@code "health":"true"}) and kube-apiserver
 * ({@code /readyz} answers 200), for processes and containers alike. HTTP/1.1 on purpose: the JDK
 * client's HTTP/2 upgrade is answered with GOAWAY by Go servers during start-up.
 */
public final class ReadinessProbes {

  private static final HttpClient PLAIN =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(1))
          .build();

  private ReadinessProbes() {}

  /** etcd at {@code clientUrl} reports itself healthy. */
  public static HealthCheck etcd(String clientUrl) {
    URI health = URI.create(clientUrl + "/health");
    return () -> {
      HttpResponse<String> response =
          PLAIN.send(
              HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(1)).build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 && response.body().contains("\"health\":\"true\"");
    };
  }

  /** kube-apiserver at {@code url} answers {@code /readyz} with 200, trusting only {@code ca}. */
  public static HealthCheck apiServer(String url, TinyCa ca) {
    HttpClient http = trusting(ca);
    URI readyz = URI.create(url + "/readyz");
    return () ->
        http.send(
                    HttpRequest.newBuilder(readyz).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode()
            == 200;
  }

  private static HttpClient trusting(TinyCa ca) {
    try {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      trust.setCertificateEntry("kube-harness-ca", ca.certificate());
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .sslContext(context)
          .connectTimeout(Duration.ofSeconds(1))
          .build();
    } catch (IOException | GeneralSecurityException e) {
      throw new KubeHarnessException("Cannot build a TLS client trusting the run's CA: " + e, e);
    }
  }
}
