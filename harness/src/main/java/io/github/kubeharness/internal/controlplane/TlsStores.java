package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/** JSSE key and trust managers made in memory from the run's certificates: no key store files. */
public final class TlsStores {

  private static final char[] IN_MEMORY = "kube-harness".toCharArray();

  private TlsStores() {}

  /** Trusts exactly {@code ca}. */
  public static TrustManagerFactory trusting(X509Certificate ca) {
    try {
      KeyStore store = emptyStore();
      store.setCertificateEntry("ca", ca);
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory;
    } catch (IOException | GeneralSecurityException e) {
      throw new KubeHarnessException("Cannot build a trust store of the run's CA: " + e, e);
    }
  }

  /**
   * Trusts any server certificate: for the components' {@code /healthz}, which serve a certificate
   * of their own choosing, and for tests acting as a stranger with no trust at all.
   */
  public static TrustManager anyServer() {
    return ANY_SERVER;
  }

  private static final TrustManager ANY_SERVER =
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

  /** Presents {@code issued} (with its issuer's certificate) as this side's identity. */
  public static KeyManagerFactory presenting(TinyCa.Issued issued, X509Certificate issuer) {
    try {
      KeyStore store = emptyStore();
      store.setKeyEntry(
          "key",
          issued.keyPair().getPrivate(),
          IN_MEMORY,
          new Certificate[] {issued.certificate(), issuer});
      KeyManagerFactory factory =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(store, IN_MEMORY);
      return factory;
    } catch (IOException | GeneralSecurityException e) {
      throw new KubeHarnessException("Cannot build a key store for a certificate: " + e, e);
    }
  }

  private static KeyStore emptyStore() throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    return store;
  }
}
