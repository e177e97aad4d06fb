package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.ProcSockets.OpenSocket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The census's own parts, on sockets this JVM opens: {@link ProcSockets} finds a listening TCP
 * socket, a bound UDP socket and a listening Unix socket of this process in {@code /proc}, and a
 * socket no rule knows fails the census, naming it and its process.
 */
class SocketCensusTest {

  @Test
  void procFindsThisProcesssListeningTcpBoundUdpAndUnixSockets(@TempDir Path dir) throws Exception {
    Path path = dir.resolve("census.sock");
    try (ServerSocket tcp = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        DatagramSocket udp = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        ServerSocketChannel unix = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      unix.bind(UnixDomainSocketAddress.of(path));
      List<String> found =
          ProcSockets.accepting(ProcessHandle.current().pid()).stream()
              .map(OpenSocket::where)
              .toList();
      assertThat(found)
          .anyMatch(w -> w.matches("tcp6? 127\\.0\\.0\\.1:" + tcp.getLocalPort()))
          .anyMatch(w -> w.matches("udp6? 127\\.0\\.0\\.1:" + udp.getLocalPort()))
          .contains("unix " + path);
    }
  }

  @Test
  void aSocketNoRuleKnowsFailsTheCensusNamingItAndItsProcess() throws Exception {
    try (ServerSocket unknown = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      List<OpenSocket> sockets =
          ProcSockets.accepting(ProcessHandle.current().pid()).stream()
              .filter(s -> s.port() == unknown.getLocalPort())
              .toList();
      assertThat(sockets).hasSize(1);
      SocketCensus census = SocketCensus.of("unit").knowing(KnownServers.etcd());
      List<SocketCensus.Row> rows = census.take(sockets);
      assertThat(rows.get(0).problems())
          .singleElement()
          .asString()
          .contains("unknown socket: the census does not know how to probe")
          .contains("127.0.0.1:" + unknown.getLocalPort())
          .contains("of java (pid " + ProcessHandle.current().pid());
      assertThatThrownBy(() -> census.report(rows))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("| unknown |")
          .hasMessageContaining("**FAIL**");
    }
  }
}
