package io.github.kubeharness.internal.client;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A trust manager that checks the server's name against its certificate during the handshake,
 * whether or not the HTTP client asked for it, and otherwise trusts as the one it wraps.
 *
 * <p>Why: {@link InMemoryTlsFactory} hands fabric8 a configuration with {@code trustCerts} set, so
 * that fabric8 loads no CA of its own, and some of fabric8's HTTP clients read that flag as "skip
 * the host name check" too (its OkHttp factory installs a verifier that accepts any name). The name
 * check then has to happen here, or a certificate from the kubeconfig's CA made out to another host
 * would be accepted for this one. The rules are the JDK's for HTTPS (RFC 2818), which the clients
 * that do check apply too.
 */
final class NameCheckingTrustManager extends X509ExtendedTrustManager {

  private static final String HTTPS = "HTTPS";

  private final X509ExtendedTrustManager trusted;

  NameCheckingTrustManager(X509ExtendedTrustManager trusted) {
    this.trusted = trusted;
  }

  /** {@code managers} with every X.509 trust manager among them checking the server's name. */
  static TrustManager[] wrap(TrustManager[] managers) {
    TrustManager[] wrapped = managers.clone();
    for (int i = 0; i < wrapped.length; i++) {
      if (wrapped[i] instanceof X509ExtendedTrustManager x509) {
        wrapped[i] = new NameCheckingTrustManager(x509);
      }
    }
    return wrapped;
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    // The JDK's trust manager checks the name when the connection's parameters name an
    // identification algorithm; a client that checks names itself afterwards (or not at all)
    // leaves it unset. Setting it here makes the check part of the handshake.
    withNameCheck(engine.getSSLParameters()).ifPresent(engine::setSSLParameters);
    trusted.checkServerTrusted(chain, authType, engine);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    if (!(socket instanceof SSLSocket tls)) {
      throw noConnection();
    }
    withNameCheck(tls.getSSLParameters()).ifPresent(tls::setSSLParameters);
    trusted.checkServerTrusted(chain, authType, socket);
  }

  // Without its connection there is no name to check against: refuse rather than trust blindly.
  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw noConnection();
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    trusted.checkClientTrusted(chain, authType, engine);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    trusted.checkClientTrusted(chain, authType, socket);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    trusted.checkClientTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return trusted.getAcceptedIssuers();
  }

  /** The connection's parameters with the name check turned on, if it was off; else empty. */
  private static Optional<SSLParameters> withNameCheck(SSLParameters parameters) {
    String algorithm = parameters.getEndpointIdentificationAlgorithm();
    if (algorithm != null && !algorithm.isEmpty()) {
      return Optional.empty();
    }
    parameters.setEndpointIdentificationAlgorithm(HTTPS);
    return Optional.of(parameters);
  }

  private static CertificateException noConnection() {
    return new CertificateException(
        "Cannot check the server's name: the HTTP client gave no TLS connection to check it"
            + " against, so the certificate is not trusted");
  }
}
