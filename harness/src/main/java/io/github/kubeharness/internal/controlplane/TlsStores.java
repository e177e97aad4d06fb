package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.crypto.spec.PBEParameterSpec;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/** JSSE key and trust managers made in memory from the run's certificates: no key store files. */
public final class TlsStores {

  private static final char[] IN_MEMORY = "kube-harness".toCharArray();

  // The key store never leaves memory, so its key needs no protection worth paying for: PKCS12's
  // default (PBKDF2, 10,000 rounds, once to store and once to read) costs a cold JVM ~150 ms on
  // the start path, and ~30 ms warm. One round.
  private static final KeyStore.ProtectionParameter IN_MEMORY_PROTECTION =
      new KeyStore.PasswordProtection(
          IN_MEMORY, "PBEWithHmacSHA256AndAES_256", new PBEParameterSpec(new byte[16], 1));

  private TlsStores() {}

  /** Trusts exactly {@code ca}. */
  public static TrustManagerFactory trusting(X509Certificate ca) {
    return trusting(List.of(ca));
  }

  /** Trusts exactly {@code cas}: a kubeconfig's certificate-authority-data, as kubectl does. */
  public static TrustManagerFactory trusting(List<X509Certificate> cas) {
    try {
      KeyStore store = emptyStore();
      for (int i = 0; i < cas.size(); i++) {
        store.setCertificateEntry("ca-" + i, cas.get(i));
      }
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
    return presenting(issued.keyPair().getPrivate(), List.of(issued.certificate(), issuer));
  }

  /** Presents {@code key} with its certificate {@code chain} (the key's own certificate first). */
  public static KeyManagerFactory presenting(PrivateKey key, List<X509Certificate> chain) {
    try {
      KeyStore store = emptyStore();
      store.setEntry(
          "key",
          new KeyStore.PrivateKeyEntry(key, chain.toArray(Certificate[]::new)),
          IN_MEMORY_PROTECTION);
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
