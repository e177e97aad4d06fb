package io.github.kubeharness.internal.faults;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Who a request through the {@link FaultProxy} comes from, passed on as the apiserver's front proxy
 * passes it: the verified client certificate's name and groups as {@code X-Remote-User}/{@code
 * X-Remote-Group}, or a bearer token untouched. Identity headers a caller sends are dropped, and a
 * caller with neither is refused: the proxy gives no one access they did not have.
 */
final class CallerIdentity {

  private CallerIdentity() {}

  /**
   * Replaces the caller's identity headers by the identity of its verified client certificate;
   * returns why the request is refused, or null.
   */
  static String passOnIdentity(HttpServerRequest request) {
    MultiMap headers = request.headers();
    List<String> spoofed = new ArrayList<>();
    for (String header : headers.names()) {
      if (header.toLowerCase(Locale.ROOT).startsWith("x-remote-")) {
        spoofed.add(header);
      }
    }
    spoofed.forEach(headers::remove);
    X509Certificate client = clientCertificate(request);
    if (client != null) {
      try {
        for (Rdn rdn : new LdapName(client.getSubjectX500Principal().getName()).getRdns()) {
          if (rdn.getType().equalsIgnoreCase("CN")) {
            headers.set("X-Remote-User", String.valueOf(rdn.getValue()));
          } else if (rdn.getType().equalsIgnoreCase("O")) {
            headers.add("X-Remote-Group", String.valueOf(rdn.getValue()));
          }
        }
        return headers.contains("X-Remote-User")
            ? null
            : "the client certificate has no common name";
      } catch (InvalidNameException e) {
        return "the client certificate's subject cannot be read: " + e.getMessage();
      }
    }
    String authorization = headers.get("Authorization");
    if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    return "no client identity (present a client certificate of the cluster's CA or a bearer"
        + " token)";
  }

  private static X509Certificate clientCertificate(HttpServerRequest request) {
    try {
      List<Certificate> chain = request.connection().peerCertificates();
      return chain != null && !chain.isEmpty() && chain.get(0) instanceof X509Certificate x509
          ? x509
          : null;
    } catch (SSLPeerUnverifiedException e) {
      return null;
    }
  }
}
