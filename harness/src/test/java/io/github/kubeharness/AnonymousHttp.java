package io.github.kubeharness;

import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * An HTTPS client with no identity at all (no certificate, no token) that trusts any server: what a
 * stranger on the machine could send to a port. Tests check such requests are refused.
 */
public final class AnonymousHttp {

  private AnonymousHttp() {}

  public static HttpClient client() {
    TrustManager anyServer =
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    try {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, new TrustManager[] {anyServer}, null);
      return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls).build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
