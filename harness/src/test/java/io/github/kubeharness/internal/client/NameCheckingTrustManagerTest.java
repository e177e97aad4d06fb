package io.github.kubeharness.internal.client;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.controlplane.TlsStores;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.Test;

/**
 * The trust managers of kube-harness's clients check the server's name even for an HTTP client that
 * asked for no such check (as fabric8's OkHttp client does under {@code trustCerts}): here, a TLS
 * connection that names no endpoint identification algorithm, over a socket and over an engine.
 */
class NameCheckingTrustManagerTest {

  private static final String NO_MATCH =
      "No subject alternative names matching IP address 127.0.0.1";

  private final TinyCa ca = TinyCa.create("kube-harness-test-ca");

  @Test
  void aSocketWithoutANameCheckGetsOne() throws Exception {
    TinyCa.Issued elsewhere = ca.issueServing("api", List.of(), List.of("elsewhere.example"));
    // The control: the CA's trust alone accepts the certificate on such a connection.
    assertThatCode(() -> socketHandshake(elsewhere, plainTrust())).doesNotThrowAnyException();

    assertThatThrownBy(() -> socketHandshake(elsewhere, checkingTrust()))
        .isInstanceOf(SSLHandshakeException.class)
        .hasMessageContaining(NO_MATCH);
    assertThatCode(() -> socketHandshake(serving127(), checkingTrust())).doesNotThrowAnyException();
  }

  @Test
  void anEngineWithoutANameCheckGetsOne() throws Exception {
    TinyCa.Issued elsewhere = ca.issueServing("api", List.of(), List.of("elsewhere.example"));
    assertThatCode(() -> engineHandshake(elsewhere, plainTrust())).doesNotThrowAnyException();

    assertThatThrownBy(() -> engineHandshake(elsewhere, checkingTrust()))
        .isInstanceOf(SSLHandshakeException.class)
        .hasMessageContaining(NO_MATCH);
    assertThatCode(() -> engineHandshake(serving127(), checkingTrust())).doesNotThrowAnyException();
  }

  @Test
  void refusesWithoutAConnectionToCheckTheNameAgainst() {
    NameCheckingTrustManager trust =
        (NameCheckingTrustManager) NameCheckingTrustManager.wrap(plainTrust())[0];
    assertThatThrownBy(
            () -> trust.checkServerTrusted(new java.security.cert.X509Certificate[0], "EC"))
        .hasMessageContaining("Cannot check the server's name");
  }

  private TinyCa.Issued serving127() {
    return ca.issueServing("api", List.of("127.0.0.1"), List.of());
  }

  private TrustManager[] plainTrust() {
    return TlsStores.trusting(ca.certificate()).getTrustManagers();
  }

  private TrustManager[] checkingTrust() {
    return NameCheckingTrustManager.wrap(plainTrust());
  }

  private SSLContext server(TinyCa.Issued serving) throws Exception {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(TlsStores.presenting(serving, ca.certificate()).getKeyManagers(), null, null);
    return tls;
  }

  private static SSLContext client(TrustManager[] trust) throws Exception {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, trust, null);
    return tls;
  }

  /** A handshake over a socket to 127.0.0.1 that names no identification algorithm. */
  private void socketHandshake(TinyCa.Issued serving, TrustManager[] trust) throws Exception {
    try (ServerSocket listener =
        server(serving)
            .getServerSocketFactory()
            .createServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      CompletableFuture<Void> accepted =
          CompletableFuture.runAsync(
              () -> {
                try (SSLSocket peer = (SSLSocket) ((SSLServerSocket) listener).accept()) {
                  peer.startHandshake();
                } catch (Exception clientGaveUp) {
                  // the client's side is what is under test
                }
              });
      try (SSLSocket socket = (SSLSocket) client(trust).getSocketFactory().createSocket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", listener.getLocalPort()), 5_000);
        socket.startHandshake();
      } finally {
        accepted.join();
      }
    }
  }

  /** A handshake between two engines in memory; the client's peer host is 127.0.0.1. */
  private void engineHandshake(TinyCa.Issued serving, TrustManager[] trust) throws Exception {
    SSLEngine client = client(trust).createSSLEngine("127.0.0.1", 443);
    client.setUseClientMode(true);
    SSLEngine server = server(serving).createSSLEngine();
    server.setUseClientMode(false);
    int packet = client.getSession().getPacketBufferSize();
    ByteBuffer toServer = ByteBuffer.allocate(4 * packet);
    ByteBuffer toClient = ByteBuffer.allocate(4 * packet);
    client.beginHandshake();
    server.beginHandshake();
    for (int step = 0; handshaking(client) || handshaking(server); step++) {
      if (step > 1_000) {
        throw new AssertionError("The in-memory handshake made no progress");
      }
      advance(client, toClient, toServer);
      advance(server, toServer, toClient);
    }
  }

  private static boolean handshaking(SSLEngine engine) {
    HandshakeStatus status = engine.getHandshakeStatus();
    return status != HandshakeStatus.NOT_HANDSHAKING && status != HandshakeStatus.FINISHED;
  }

  private static void advance(SSLEngine engine, ByteBuffer in, ByteBuffer out) throws SSLException {
    ByteBuffer application = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
    switch (engine.getHandshakeStatus()) {
      case NEED_TASK -> {
        for (Runnable task = engine.getDelegatedTask(); task != null; ) {
          task.run();
          task = engine.getDelegatedTask();
        }
      }
      case NEED_WRAP -> engine.wrap(ByteBuffer.allocate(0), out);
      case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
        in.flip();
        engine.unwrap(in, application);
        in.compact();
      }
      default -> {}
    }
  }
}
