package io.github.kubeharness.internal.client;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.github.kubeharness.internal.controlplane.PemKeys;
import io.github.kubeharness.internal.controlplane.TlsStores;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;

/**
 * fabric8's HTTP client factory, with a kubeconfig's TLS (its CA, and its client certificate and
 * key if it has them) set up in memory by the JDK. fabric8's own way writes the key into a PKCS#12
 * store under 10,000 PBKDF2 rounds and reads it back under 10,000 more, and parses the JDK's public
 * CAs, for every client: ~400 ms of CPU in a fresh JVM, spent while the API server boots on the
 * same cores, and 15-20 ms per client after that against 6-8 (README "Performance").
 *
 * <p>Trust is the kubeconfig's CA alone, as kubectl's; fabric8 would add the public CAs. The
 * server's name is checked against its certificate whatever the HTTP client ({@link
 * NameCheckingTrustManager}). A kubeconfig this cannot read (key files, an encrypted key) goes to
 * fabric8 as it is, and so does one that turns verification off (insecure-skip-tls-verify, or
 * fabric8's disableHostnameVerification): that is the user's choice, made for fabric8 to honour.
 */
final class InMemoryTlsFactory implements HttpClient.Factory {

  private final HttpClient.Factory delegate;

  InMemoryTlsFactory(HttpClient.Factory delegate) {
    this.delegate = delegate;
  }

  @Override
  public HttpClient.Builder newBuilder() {
    return delegate.newBuilder();
  }

  @Override
  public HttpClient.Builder newBuilder(Config config) {
    Optional<Tls> tls = Tls.of(config);
    if (tls.isEmpty()) {
      return delegate.newBuilder(config);
    }
    // Everything but TLS as fabric8 configures it (timeouts, proxy, interceptors); its TLS step
    // finds nothing to load: no certificates, and no CA file to read (trustCerts is replaced
    // below by a context that trusts the kubeconfig's CA). Some of fabric8's HTTP clients also
    // stop checking host names under trustCerts (OkHttp's); the trust managers below check them.
    Config withoutTls =
        new ConfigBuilder(config)
            .withCaCertData(null)
            .withCaCertFile(null)
            .withClientCertData(null)
            .withClientCertFile(null)
            .withClientKeyData(null)
            .withClientKeyFile(null)
            .withTrustCerts(true)
            .build();
    return delegate
        .newBuilder(withoutTls)
        .sslContext(tls.get().keyManagers(), tls.get().trustManagers());
  }

  @Override
  public int priority() {
    return delegate.priority();
  }

  /** The kubeconfig's key managers (null without a client certificate) and trust managers. */
  private record Tls(KeyManager[] keyManagers, TrustManager[] trustManagers) {

    static Optional<Tls> of(Config config) {
      boolean certificate = !isEmpty(config.getClientCertData());
      boolean key = !isEmpty(config.getClientKeyData());
      boolean identityInFiles =
          !isEmpty(config.getClientCertFile()) || !isEmpty(config.getClientKeyFile());
      // Readable here: a CA, and a certificate with its key as data or no client identity at all;
      // and checks on: a kubeconfig that turns them off gets fabric8's own handling of that.
      if (config.isTrustCerts()
          || config.isDisableHostnameVerification()
          || isEmpty(config.getCaCertData())
          || certificate != key
          || (!certificate && identityInFiles)) {
        return Optional.empty();
      }
      try {
        List<X509Certificate> cas = PemKeys.certificates(pem(config.getCaCertData()));
        if (cas.isEmpty()) {
          return Optional.empty();
        }
        KeyManager[] keyManagers = null;
        if (certificate) {
          List<X509Certificate> chain = PemKeys.certificates(pem(config.getClientCertData()));
          Optional<PrivateKey> privateKey = PemKeys.privateKey(pem(config.getClientKeyData()));
          if (chain.isEmpty() || privateKey.isEmpty()) {
            return Optional.empty();
          }
          keyManagers = TlsStores.presenting(privateKey.get(), chain).getKeyManagers();
        }
        return Optional.of(
            new Tls(
                keyManagers,
                NameCheckingTrustManager.wrap(TlsStores.trusting(cas).getTrustManagers())));
      } catch (CertificateException | RuntimeException e) {
        // fabric8 reads it, or reports what is wrong with it in its own words.
        return Optional.empty();
      }
    }

    // A kubeconfig's *-data is base64 of PEM; fabric8 also takes the PEM itself.
    private static String pem(String data) {
      try {
        return new String(Base64.getDecoder().decode(data.trim()), StandardCharsets.US_ASCII);
      } catch (IllegalArgumentException notBase64) {
        return data;
      }
    }

    private static boolean isEmpty(String value) {
      return value == null || value.isBlank();
    }
  }
}
