package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.ManagedProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * etcd for one control plane: plain HTTP on 127.0.0.1, free ports, data in the run directory, and
 * {@code --unsafe-no-fsync} because test data need not survive a power cut and fsync dominates
 * etcd's write latency on CI disks. With an {@link EtcdSeed} the data directory starts as a copy of
 * it.
 */
public final class Etcd extends LocalComponent {

  private final EtcdSeed seed;
  private int clientPort;

  /**
   * @param seed the data to start from, or null to start empty
   */
  public Etcd(Path binary, Path runDirectory, EtcdSeed seed) {
    super(binary, runDirectory);
    this.seed = seed;
  }

  /** Starts etcd without waiting; kube-apiserver may be launched meanwhile (it retries etcd). */
  public void launch() {
    if (seed != null) {
      seed.copyTo(dataDirectory());
    }
    clientPort = FreePorts.next();
    int peerPort = FreePorts.next();
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(flags(dataDirectory().toString(), "127.0.0.1", clientPort, peerPort));
    process = new ManagedProcess("etcd", command, runDirectory.resolve("etcd.log"), Map.of());
    process.launch();
  }

  /**
   * etcd's flags, shared with the container backend: one member, plain HTTP, clients and peers on
   * {@code listenHost}, advertised on 127.0.0.1.
   */
  public static List<String> flags(
      String dataDirectory, String listenHost, int clientPort, int peerPort) {
    String peer = "http://127.0.0.1:" + peerPort;
    return List.of(
        "--name=kube-harness",
        "--data-dir=" + dataDirectory,
        "--listen-client-urls=http://" + listenHost + ":" + clientPort,
        "--advertise-client-urls=http://127.0.0.1:" + clientPort,
        "--listen-peer-urls=http://" + listenHost + ":" + peerPort,
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
        "--log-level=warn");
  }

  public void awaitReady(Duration timeout) {
    process.awaitReady(ReadinessProbes.etcd(clientUrl()), timeout);
  }

  public Path dataDirectory() {
    return runDirectory.resolve("etcd-data");
  }

  public String clientUrl() {
    return "http://127.0.0.1:" + clientPort;
  }
}
