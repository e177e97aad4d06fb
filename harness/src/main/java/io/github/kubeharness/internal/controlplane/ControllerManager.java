package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.ManagedProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * kube-controller-manager of the {@code standard} profile, running only the controllers that make a
 * pod-less cluster behave: namespace deletion, garbage collection of owned objects, service
 * accounts and their tokens, the {@code kube-root-ca.crt} ConfigMap and aggregated ClusterRoles.
 * Workload controllers stay off: without a kubelet their pods would never run anyway.
 */
public final class ControllerManager extends LocalComponent {

  static final String CONTROLLERS =
      "namespace-controller,garbage-collector-controller,serviceaccount-controller,"
          + "serviceaccount-token-controller,clusterrole-aggregation-controller,"
          + "root-ca-certificate-publisher-controller";

  private final String kubeconfig;
  private int port;

  public ControllerManager(Path binary, Path runDirectory, String kubeconfig) {
    super(binary, runDirectory);
    this.kubeconfig = kubeconfig;
  }

  public void start(Duration timeout) {
    port = FreePorts.next();
    Path kubeconfigFile = runDirectory.resolve("kube-controller-manager.kubeconfig");
    Path pki = runDirectory.resolve("pki");
    Identities.write(kubeconfigFile, kubeconfig);
    process =
        new ManagedProcess(
            "kube-controller-manager",
            command(kubeconfigFile, pki),
            runDirectory.resolve("kube-controller-manager.log"),
            Map.of());
    process.start(ReadinessProbes.controllerManager(port), timeout);
  }

  private List<String> command(Path kubeconfigFile, Path pki) {
    List<String> command = new java.util.ArrayList<>();
    command.add(binary.toString());
    command.addAll(
        flags(
            kubeconfigFile.toString(),
            pki.toString(),
            "127.0.0.1",
            port,
            runDirectory.resolve("kcm-certs").toString()));
    return command;
  }

  /**
   * The kube-controller-manager flags, shared with the container backend.
   *
   * @param pkiDirectory where the {@link Pki} files are, as the controller manager sees it
   */
  public static List<String> flags(
      String kubeconfig, String pkiDirectory, String bindAddress, int port, String certDirectory) {
    String pki = pkiDirectory.endsWith("/") ? pkiDirectory : pkiDirectory + "/";
    return List.of(
        "--kubeconfig=" + kubeconfig,
        "--controllers=" + CONTROLLERS,
        "--service-account-private-key-file=" + pki + Pki.SA_KEY,
        "--root-ca-file=" + pki + Pki.CA,
        "--leader-elect=false",
        "--bind-address=" + bindAddress,
        "--secure-port=" + port,
        "--cert-dir=" + certDirectory,
        "--concurrent-namespace-syncs=5",
        "--profiling=false");
  }
}
