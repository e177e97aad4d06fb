package io.github.kubeharness;

import io.github.kubeharness.internal.controlplane.TlsStores;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * An HTTPS client with no identity at all (no certificate, no token) that trusts any server: what a
 * stranger on the machine could send to a port. Tests check such requests are refused.
 */
public final class AnonymousHttp {

  private AnonymousHttp() {}

  public static HttpClient client() {
    try {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, new TrustManager[] {TlsStores.anyServer()}, null);
      return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls).build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
