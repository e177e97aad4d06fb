package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.ManagedProcess;
import io.github.kubeharness.internal.process.PrivateFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * etcd for one control plane: TLS on 127.0.0.1 that admits only clients with the run's etcd client
 * certificate ({@link EtcdTls}), free ports, data in the run directory, and {@code
 * --unsafe-no-fsync} because test data need not survive a power cut and fsync dominates etcd's
 * write latency on CI disks. With an {@link EtcdSeed} the data directory starts as a copy of it.
 */
public final class Etcd extends LocalComponent {

  private final EtcdSeed seed;
  private final EtcdTls tls;
  private int clientPort;

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
    clientPort = FreePorts.next();
    int peerPort = FreePorts.next();
    Path tlsDirectory = PrivateFiles.directory(runDirectory.resolve("etcd-pki"));
    tls.serverFiles()
        .forEach((name, content) -> PrivateFiles.write(tlsDirectory.resolve(name), content));
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(
        flags(
            dataDirectory().toString(),
            "127.0.0.1",
            clientPort,
            peerPort,
            tlsDirectory.toString()));
    process = new ManagedProcess("etcd", command, runDirectory.resolve("etcd.log"), Map.of());
    process.launch();
  }

  /**
   * etcd's flags, shared with the container backend: one member, TLS with client certificates
   * ({@link EtcdTls#serverFlags}, its files in {@code tlsDirectory}), clients and peers on {@code
   * listenHost}, advertised on 127.0.0.1.
   */
  public static List<String> flags(
      String dataDirectory, String listenHost, int clientPort, int peerPort, String tlsDirectory) {
    String peer = "https://127.0.0.1:" + peerPort;
    List<String> flags = new ArrayList<>();
    flags.addAll(
        List.of(
            "--name=kube-harness",
            "--data-dir=" + dataDirectory,
            "--listen-client-urls=https://" + listenHost + ":" + clientPort,
            "--advertise-client-urls=https://127.0.0.1:" + clientPort,
            "--listen-peer-urls=https://" + listenHost + ":" + peerPort,
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
    process.awaitReady(ReadinessProbes.etcd(this::clientUrl, tls), timeout);
  }

  public EtcdTls tls() {
    return tls;
  }

  public Path dataDirectory() {
    return runDirectory.resolve("etcd-data");
  }

  public String clientUrl() {
    return "https://127.0.0.1:" + clientPort;
  }
}
