package io.github.kubeharness.internal.backend;

import io.github.kubeharness.internal.controlplane.ReadinessProbes;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.PrivateFiles;
import io.github.kubeharness.simulation.Simulation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The KWOK controller of the {@code simulated} profile: it plays the kubelet of every node labelled
 * {@value Simulation#NODE_LABEL}, moving nodes to Ready and pods through their lifecycle by the
 * stages in {@code simulated/kwok.yaml} (see there). Its own server (health, and where the API
 * server's log/exec requests would go, switched off in {@code simulated/kwok.yaml}: it is plain
 * HTTP without authentication) listens on 127.0.0.1 only, and so does every node address.
 */
final class Kwok extends LocalComponent {

  /** Pod IPs KWOK hands out: addresses only, nothing listens on them. */
  static final String POD_CIDR = "10.244.0.0/16";

  private final String kubeconfig;
  private final Duration podStartDelay;
  private final String kubernetesVersion;
  private int port;

  public Kwok(
      Path binary,
      Path runDirectory,
      String kubeconfig,
      Duration podStartDelay,
      String kubernetesVersion) {
    super(binary, runDirectory);
    this.kubeconfig = kubeconfig;
    this.podStartDelay = podStartDelay;
    this.kubernetesVersion = kubernetesVersion;
  }

  /** Starts it without waiting; {@link #awaitReady} follows. */
  public void launch() {
    port = FreePorts.next();
    Path kubeconfigFile = PrivateFiles.write(runDirectory.resolve("kwok.kubeconfig"), kubeconfig);
    Path config = PrivateFiles.write(runDirectory.resolve("kwok.yaml"), config());
    process =
        newProcess(
            "kwok",
            List.of(
                binary.toString(),
                "--kubeconfig=" + kubeconfigFile,
                "--config=" + config,
                "--manage-nodes-with-label-selector=" + Simulation.NODE_LABEL + "=true",
                "--node-ip=127.0.0.1",
                "--node-port=" + port,
                "--server-address=127.0.0.1:" + port,
                "--cidr=" + POD_CIDR),
            runDirectory.resolve("kwok.log"),
            // Its work directory in the run's: a ~/.kwok/kwok.yaml of the user's (stages, tracing)
            // must not mix into ours.
            Map.of("KWOK_WORKDIR", runDirectory.resolve("kwok").toString()));
    process.launch();
  }

  public void awaitReady(Duration timeout) {
    process.awaitReady(ReadinessProbes.kwok(port), timeout);
  }

  /** The stages, with this run's values filled in. */
  String config() {
    return BundledResources.text("simulated/kwok.yaml")
        .replace("@KUBERNETES_VERSION@", "v" + kubernetesVersion)
        .replace("@START_DELAY_MS@", Long.toString(podStartDelay.toMillis()));
  }
}
