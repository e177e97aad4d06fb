package io.github.kubeharness.internal.backend;

import io.github.kubeharness.internal.controlplane.EtcdTls;
import io.github.kubeharness.internal.controlplane.ReadinessProbes;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.PrivateFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * etcd for one control plane, reached by kube-apiserver only: its clients' endpoint is a Unix
 * socket in the owner-only run directory, which no other user can open; its peer port (a member
 * must have one) is on 127.0.0.1 and admits only the run's etcd certificate ({@link EtcdTls}). Data
 * in the run directory, and {@code --unsafe-no-fsync} because test data need not survive a power
 * cut and fsync dominates etcd's write latency on CI disks. With an {@link EtcdSeed} the data
 * directory starts as a copy of it.
 *
 * <p>Why a socket, not TLS on a port as the containers have: kube-apiserver opens ~70 connections
 * to etcd at start, one per resource, and their handshakes cost a start ~140 ms (docs/security.md).
 * A socket path longer than the kernel takes (a deep {@code java.io.tmpdir} or cache directory)
 * falls back to that port, with the same certificate rule.
 */
final class Etcd extends LocalComponent {

  /**
   * What a socket-serving etcd advertises to its clients: etcd 3.6 insists on host:port in an
   * advertised URL, and no client asks for it (kube-apiserver dials {@code --etcd-servers} and
   * never syncs the member list).
   */
  private static final String ADVERTISED_SOCKET = "unix://localhost:0";

  /** sun_path is 108 bytes on Linux, 104 on macOS, with its terminating zero. */
  private static final int MAX_SOCKET_PATH = 103;

  private final EtcdSeed seed;
  private final EtcdTls tls;
  private int clientPort;
  // The clients' socket, or null when its path is too long and clients use clientPort over TLS.
  private Path socket;

  /**
   * @param seed the data to start from, or null to start empty
   */
  public Etcd(Path binary, Path runDirectory, EtcdSeed seed, EtcdTls tls) {
    super(binary, runDirectory);
    this.seed = seed;
    this.tls = tls;
  }

  /** Starts etcd without waiting; kube-apiserver may be launched meanwhile (it retries etcd). */
  public void launch() {
    if (seed != null) {
      seed.copyTo(dataDirectory());
    }
    Path candidate = runDirectory.toAbsolutePath().resolve("etcd.sock");
    socket =
        candidate.toString().getBytes(StandardCharsets.UTF_8).length <= MAX_SOCKET_PATH
            ? candidate
            : null;
    clientPort = socket == null ? FreePorts.next() : 0;
    int peerPort = FreePorts.next();
    Path tlsDirectory = PrivateFiles.directory(runDirectory.resolve("etcd-pki"));
    tls.serverFiles()
        .forEach((name, content) -> PrivateFiles.write(tlsDirectory.resolve(name), content));
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    String clients = socket == null ? "https://127.0.0.1:" + clientPort : clientUrl();
    command.addAll(
        flags(
            dataDirectory().toString(),
            clients,
            socket == null ? clients : ADVERTISED_SOCKET,
            "127.0.0.1",
            peerPort,
            tlsDirectory.toString()));
    process = newProcess("etcd", command, runDirectory.resolve("etcd.log"), Map.of());
    process.launch();
  }

  /**
   * etcd's flags, shared with the container backend: one member, clients served on {@code
   * listenClientUrl} (a {@code unix://} socket or an {@code https://} address) and told {@code
   * advertiseClientUrl}, the peer on {@code https://peerHost:peerPort}; every TLS listener asks for
   * a certificate of the run's etcd CA ({@link EtcdTls#serverFlags}, its files in {@code
   * tlsDirectory}).
   */
  public static List<String> flags(
      String dataDirectory,
      String listenClientUrl,
      String advertiseClientUrl,
      String peerHost,
      int peerPort,
      String tlsDirectory) {
    // Advertised on 127.0.0.1 whatever it listens on: the only member needs no other address.
    String peer = "https://127.0.0.1:" + peerPort;
    List<String> flags = new ArrayList<>();
    flags.addAll(
        List.of(
            "--name=kube-harness",
            "--data-dir=" + dataDirectory,
            "--listen-client-urls=" + listenClientUrl,
            "--advertise-client-urls=" + advertiseClientUrl,
            "--listen-peer-urls=https://" + peerHost + ":" + peerPort,
            "--initial-advertise-peer-urls=" + peer,
            "--initial-cluster=kube-harness=" + peer,
            "--unsafe-no-fsync=true",
            // A single member has no peers to lose: a short election timeout only makes it elect
            // itself sooner (readiness in ~70 ms instead of 130-700 ms).
            "--heartbeat-interval=10",
            "--election-timeout=50",
            // kube-apiserver's watch cache only learns that a quiet resource is up to date from
            // etcd's progress notifications; at the default 10 minutes a watch on a brand-new CRD
            // waits seconds before it delivers its first event.
            "--watch-progress-notify-interval=100ms",
            "--log-level=warn"));
    flags.addAll(EtcdTls.serverFlags(tlsDirectory));
    return flags;
  }

  public void awaitReady(Duration timeout) {
    process.awaitReady(
        socket != null
            ? ReadinessProbes.etcdSocket(socket)
            : ReadinessProbes.etcd(this::clientUrl, tls),
        timeout);
    if (socket != null) {
      // etcd makes it under its umask (0755 here); the 0700 run directory already keeps others
      // out, and the socket itself says so too (connecting takes write permission on it).
      PrivateFiles.restrict(socket);
    }
  }

  Path dataDirectory() {
    return runDirectory.resolve("etcd-data");
  }

  /** Where clients reach etcd: {@code unix:///…/etcd.sock}, or {@code https://127.0.0.1:port}. */
  public String clientUrl() {
    return socket != null ? "unix://" + socket : "https://127.0.0.1:" + clientPort;
  }
}
