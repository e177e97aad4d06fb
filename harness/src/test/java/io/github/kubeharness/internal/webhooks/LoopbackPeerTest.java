package io.github.kubeharness.internal.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The owner of a loopback connection's other end, read from the kernel's socket tables: this JVM's
 * own connection is found and owned by this JVM's uid; a port pair no socket has is not found. (The
 * second local user's connection is refused in {@code WebhookLockdownIT}.)
 */
class LoopbackPeerTest {

  @Test
  void findsTheOwnerOfTheCallersEndOfAConnection() throws Exception {
    assertThat(LoopbackPeer.available()).as("/proc/net/tcp on this Linux machine").isTrue();
    long ownUid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    assertThat(LoopbackPeer.ownUid()).hasValue(ownUid);
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    try (ServerSocket server = new ServerSocket(0, 1, loopback);
        Socket caller = new Socket(loopback, server.getLocalPort());
        Socket accepted = server.accept()) {
      InetSocketAddress callerEnd = (InetSocketAddress) accepted.getRemoteSocketAddress();
      InetSocketAddress serverEnd = (InetSocketAddress) accepted.getLocalSocketAddress();
      assertThat(LoopbackPeer.uid(callerEnd, serverEnd)).hasValue(ownUid);
      // The same ports the other way round name the server's socket, not the caller's: found too,
      // but a pair that no socket has is not.
      assertThat(
              LoopbackPeer.uid(
                  new InetSocketAddress(loopback, serverEnd.getPort()),
                  new InetSocketAddress(loopback, callerEnd.getPort())))
          .hasValue(ownUid);
      assertThat(
              LoopbackPeer.uid(
                  new InetSocketAddress(loopback, callerEnd.getPort()),
                  new InetSocketAddress(loopback, 1)))
          .isEmpty();
    }
  }
}
