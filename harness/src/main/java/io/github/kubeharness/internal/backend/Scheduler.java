package io.github.kubeharness.internal.backend;

import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.controlplane.ReadinessProbes;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.PrivateFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * kube-scheduler of the {@code simulated} profile: binds pods to KWOK's fake nodes by the real
 * scheduling rules (resources, node selectors, affinity, taints, cordoned nodes), on 127.0.0.1.
 */
final class Scheduler extends LocalComponent {

  private final String kubeconfig;
  private int port;

  public Scheduler(Path binary, Path runDirectory, String kubeconfig) {
    super(binary, runDirectory);
    this.kubeconfig = kubeconfig;
  }

  /** Starts it without waiting; {@link #awaitReady} follows. */
  public void launch() {
    port = FreePorts.next();
    Path kubeconfigFile =
        PrivateFiles.write(runDirectory.resolve("kube-scheduler.kubeconfig"), kubeconfig);
    process =
        newProcess(
            "kube-scheduler",
            List.of(
                binary.toString(),
                "--kubeconfig=" + kubeconfigFile,
                "--authentication-kubeconfig=" + kubeconfigFile,
                "--authorization-kubeconfig=" + kubeconfigFile,
                "--leader-elect=false",
                "--bind-address=127.0.0.1",
                "--secure-port=" + port,
                "--tls-cert-file=" + runDirectory.resolve("pki").resolve(Pki.COMPONENTS_CERT),
                "--tls-private-key-file=" + runDirectory.resolve("pki").resolve(Pki.COMPONENTS_KEY),
                "--profiling=false"),
            runDirectory.resolve("kube-scheduler.log"),
            Map.of());
    process.launch();
  }

  public void awaitReady(Duration timeout) {
    process.awaitReady(ReadinessProbes.componentHealthz(port), timeout);
  }
}
