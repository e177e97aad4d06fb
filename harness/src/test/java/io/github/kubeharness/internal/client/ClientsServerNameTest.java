package io.github.kubeharness.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.internal.controlplane.Kubeconfig;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.controlplane.TlsStores;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The clients kube-harness builds check the server's name against its certificate, as kubectl does:
 * a certificate from the kubeconfig's CA made out to another host is refused. This is what keeps an
 * {@code existing} cluster's traffic from going to whoever else holds a certificate from the same
 * CA. No API server needed: a local HTTPS server answers {@code /version}.
 */
class ClientsServerNameTest {

  private static final String VERSION =
      "{\"major\":\"1\",\"minor\":\"37\",\"gitVersion\":\"v1.37.2\",\"platform\":\"linux/amd64\"}";

  private final TinyCa ca = TinyCa.create("kube-harness-test-ca");
  private HttpsServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void answersWhenTheCertificateNamesTheServer() throws Exception {
    start(ca.issueServing("api", List.of("127.0.0.1"), List.of()));
    try (KubernetesClient client = Clients.create(config(ca))) {
      assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo("v1.37.2");
    }
  }

  @Test
  void refusesACertificateFromTheCaMadeOutToAnotherHost() throws Exception {
    start(ca.issueServing("api", List.of(), List.of("elsewhere.example")));
    try (KubernetesClient client = Clients.create(config(ca))) {
      assertThatThrownBy(client::getKubernetesVersion)
          .rootCause()
          .isInstanceOf(CertificateException.class)
          .hasMessageContaining("No subject alternative names matching IP address 127.0.0.1");
    }
  }

  @Test
  void refusesACertificateFromTheCaMadeOutToAnotherHostWithAClientCertificate() throws Exception {
    start(ca.issueServing("api", List.of(), List.of("elsewhere.example")));
    TinyCa.Issued alice = ca.issueClient("alice", List.of());
    Config config =
        Config.fromKubeconfig(
            Kubeconfig.forClientCertificate(
                url(), ca.certificatePem(), alice.certificatePem(), alice.privateKeyPem()));
    try (KubernetesClient client = Clients.create(noRetries(config))) {
      assertThatThrownBy(client::getKubernetesVersion)
          .rootCause()
          .isInstanceOf(CertificateException.class)
          .hasMessageContaining("No subject alternative names matching IP address 127.0.0.1");
    }
  }

  @Test
  void insecureSkipTlsVerifyGoesToFabric8AsItIs() throws Exception {
    // The server's certificate is from a CA the kubeconfig does not name: only fabric8's
    // trust-all, which the user asked for, accepts it.
    TinyCa stranger = TinyCa.create("a-stranger");
    start(stranger.issueServing("api", List.of("127.0.0.1"), List.of()), stranger);
    Config insecure = new ConfigBuilder(config(ca)).withTrustCerts(true).build();
    try (KubernetesClient client = Clients.create(insecure)) {
      assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo("v1.37.2");
    }
  }

  private void start(TinyCa.Issued serving) throws Exception {
    start(serving, ca);
  }

  private void start(TinyCa.Issued serving, TinyCa issuer) throws Exception {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(TlsStores.presenting(serving, issuer.certificate()).getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 8);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.createContext(
        "/version",
        exchange -> {
          byte[] body = VERSION.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  private Config config(TinyCa trusted) {
    String caData =
        Base64.getEncoder()
            .encodeToString(trusted.certificatePem().getBytes(StandardCharsets.US_ASCII));
    return noRetries(Config.fromKubeconfig(Kubeconfig.forToken(url(), caData, "a-token")));
  }

  private String url() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  // fabric8 would try a failed handshake again for seconds.
  private static Config noRetries(Config config) {
    return new ConfigBuilder(config).withRequestRetryBackoffLimit(0).build();
  }
}
