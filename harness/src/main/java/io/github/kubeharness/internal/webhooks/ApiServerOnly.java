package io.github.kubeharness.internal.webhooks;

import io.github.kubeharness.internal.controlplane.TlsStores;
import io.github.kubeharness.internal.controlplane.WebhookClient;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The trust of the webhook server's admission port: a client certificate the run's CA issued to
 * kube-apiserver ({@link WebhookClient#USER}), and nothing else. Checked during the TLS handshake,
 * so another caller never gets as far as a request: not one without a certificate (the port needs
 * one), not one with a certificate of its own making, and not another identity of the run (a test's
 * user, the admin), whose certificates the same CA signs.
 */
final class ApiServerOnly extends X509ExtendedTrustManager {

  private final X509ExtendedTrustManager runCa;

  ApiServerOnly(X509Certificate runCa) {
    this.runCa = (X509ExtendedTrustManager) TlsStores.trusting(runCa).getTrustManagers()[0];
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    runCa.checkClientTrusted(chain, authType, engine);
    requireApiServer(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    runCa.checkClientTrusted(chain, authType, socket);
    requireApiServer(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    runCa.checkClientTrusted(chain, authType);
    requireApiServer(chain);
  }

  // The server side never checks a server.
  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw notAClient();
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw notAClient();
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw notAClient();
  }

  /** The run's CA: the TLS handshake asks the caller for a certificate it issued. */
  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return runCa.getAcceptedIssuers();
  }

  private static void requireApiServer(X509Certificate[] chain) throws CertificateException {
    String name = commonName(chain[0]);
    if (!WebhookClient.isNamed(name)) {
      throw new CertificateException(
          "the webhook server answers kube-apiserver only ("
              + WebhookClient.USER
              + "), not "
              + name);
    }
  }

  private static String commonName(X509Certificate certificate) throws CertificateException {
    try {
      for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          return String.valueOf(rdn.getValue());
        }
      }
      return "";
    } catch (InvalidNameException e) {
      throw new CertificateException("unreadable subject: " + e.getMessage(), e);
    }
  }

  private static CertificateException notAClient() {
    return new CertificateException("the webhook server checks clients only");
  }
}
