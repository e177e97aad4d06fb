package io.github.kubeharness.internal.faults;

import io.github.kubeharness.internal.controlplane.TlsStores;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import java.net.Socket;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Authenticates every request through the {@link FaultProxy} before any rule sees it, and passes
 * the identity on as the API server's front proxy does. A caller is one of:
 *
 * <ul>
 *   <li>a client certificate of the run's CA (the chain checked here against that CA, as the API
 *       server checks it): its common name and organizations go on as {@code X-Remote-User}/{@code
 *       X-Remote-Group}, its {@code Authorization} header is dropped (the API server, too, prefers
 *       a certificate to a token);
 *   <li>a bearer token the API server confirms ({@link TokenReviews}), passed on untouched.
 * </ul>
 *
 * Anything else — no credential, a token the API server refuses, a certificate of another CA — is
 * {@link CallerRefused} with 401. Identity headers a caller sends are dropped either way.
 */
final class CallerIdentity {

  private final X509Certificate ca;
  private final X509TrustManager runCa;
  private final TokenReviews tokens;

  CallerIdentity(X509Certificate ca, TokenReviews tokens) {
    this.ca = ca;
    this.runCa = (X509TrustManager) TlsStores.trusting(ca).getTrustManagers()[0];
    this.tokens = tokens;
  }

  /**
   * The TLS handshake's trust: it asks for a certificate of the run's CA and lets any one that
   * proves its key through, so that {@link #authenticate} can check the chain and answer a wrong
   * one with a 401 that says why, as it answers a wrong token, instead of a failed handshake.
   */
  TrustManager handshakeTrust() {
    return new X509ExtendedTrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {}

      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType)
          throws CertificateException {
        throw new CertificateException("the fault proxy trusts no server");
      }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
          throws CertificateException {
        checkServerTrusted(chain, authType);
      }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
          throws CertificateException {
        checkServerTrusted(chain, authType);
      }

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[] {ca};
      }
    };
  }

  /**
   * Who sent {@code request}, its identity headers set for the API server; fails with {@link
   * CallerRefused} when the caller proves no identity of this cluster.
   */
  Future<Caller> authenticate(HttpServerRequest request) {
    MultiMap headers = request.headers();
    List<String> spoofed = new ArrayList<>();
    for (String header : headers.names()) {
      if (header.toLowerCase(Locale.ROOT).startsWith("x-remote-")) {
        spoofed.add(header);
      }
    }
    spoofed.forEach(headers::remove);
    String impersonating = impersonation(headers);
    X509Certificate[] chain = clientCertificates(request);
    if (chain.length > 0) {
      try {
        runCa.checkClientTrusted(chain, chain[0].getPublicKey().getAlgorithm());
      } catch (CertificateException | RuntimeException e) {
        // "PKIX path building failed" says, in the JDK's words, that the run's CA did not sign it.
        String why =
            String.valueOf(e.getMessage()).startsWith("PKIX path building failed")
                ? "not signed by it"
                : e.getMessage();
        return refused(
            "the client certificate "
                + chain[0].getSubjectX500Principal().getName()
                + " is not a client certificate of this cluster's CA, "
                + ca.getSubjectX500Principal().getName()
                + " ("
                + why
                + "); present one of the cluster's kubeconfigs (addUser), or route it with"
                + " faults.route(config)");
      }
      return certificateCaller(chain[0], headers, impersonating);
    }
    String authorization = headers.get("Authorization");
    if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      String token = authorization.substring(7).trim();
      if (!token.isEmpty()) {
        return tokens.review(token, impersonating);
      }
    }
    return refused(
        "no client identity (present a client certificate of the cluster's CA or a bearer token"
            + " the API server accepts)");
  }

  private static Future<Caller> certificateCaller(
      X509Certificate client, MultiMap headers, String impersonating) {
    String user = null;
    List<String> groups = new ArrayList<>();
    try {
      for (Rdn rdn : new LdapName(client.getSubjectX500Principal().getName()).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          user = String.valueOf(rdn.getValue());
        } else if (rdn.getType().equalsIgnoreCase("O")) {
          groups.add(String.valueOf(rdn.getValue()));
        }
      }
    } catch (InvalidNameException e) {
      return refused("the client certificate's subject cannot be read: " + e.getMessage());
    }
    if (user == null || user.isEmpty()) {
      return refused("the client certificate has no common name");
    }
    headers.remove("Authorization");
    headers.set("X-Remote-User", user);
    groups.forEach(group -> headers.add("X-Remote-Group", group));
    return Future.succeededFuture(new Caller(user, "", groups, impersonating));
  }

  /** The {@code Impersonate-*} headers as one text, in a fixed order; empty when none. */
  private static String impersonation(MultiMap headers) {
    TreeSet<String> lines = new TreeSet<>();
    headers.forEach(
        h -> {
          if (h.getKey().toLowerCase(Locale.ROOT).startsWith("impersonate-")) {
            lines.add(h.getKey().toLowerCase(Locale.ROOT) + "=" + h.getValue());
          }
        });
    return String.join(" ", lines);
  }

  private static Future<Caller> refused(String why) {
    return Future.failedFuture(new CallerRefused(401, "Unauthorized", why));
  }

  private static X509Certificate[] clientCertificates(HttpServerRequest request) {
    try {
      List<Certificate> chain = request.connection().peerCertificates();
      if (chain == null) {
        return new X509Certificate[0];
      }
      return chain.stream()
          .filter(X509Certificate.class::isInstance)
          .map(X509Certificate.class::cast)
          .toArray(X509Certificate[]::new);
    } catch (SSLPeerUnverifiedException e) {
      return new X509Certificate[0];
    }
  }
}
