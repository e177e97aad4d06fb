package io.github.kubeharness.internal.backend;

import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.controlplane.ReadinessProbes;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.PrivateFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * kube-controller-manager of the {@code standard} profile, running only the controllers that make a
 * pod-less cluster behave: namespace deletion, garbage collection of owned objects, service
 * accounts and their tokens, the {@code kube-root-ca.crt} ConfigMap and aggregated ClusterRoles.
 * Workload controllers stay off there: without a kubelet their pods would never run anyway. The
 * {@code simulated} profile, whose pods KWOK runs, turns them on, and the volume binder (whose
 * host-path provisioner stays off: it would write under a shared {@code /tmp}).
 */
final class ControllerManager extends LocalComponent {

  static final String CONTROLLERS =
      "namespace-controller,garbage-collector-controller,serviceaccount-controller,"
          + "serviceaccount-token-controller,clusterrole-aggregation-controller,"
          + "root-ca-certificate-publisher-controller";

  /**
   * What turns pods into workloads: owners that create pods and read their status, Services'
   * endpoints, quotas, PodDisruptionBudgets, and the clean-up of finished pods. Node lifecycle
   * stays off: KWOK's nodes have no heartbeat, and tests cordon or remove nodes themselves.
   */
  static final String WORKLOAD_CONTROLLERS =
      "deployment-controller,replicaset-controller,replicationcontroller-controller,"
          + "statefulset-controller,daemonset-controller,job-controller,cronjob-controller,"
          + "ttl-after-finished-controller,endpoints-controller,endpointslice-controller,"
          + "endpointslice-mirroring-controller,disruption-controller,resourcequota-controller,"
          + "pod-garbage-collector-controller,persistentvolumeclaim-protection-controller,"
          // Storage: claims bound to the volumes the harness provisions (SimulatedProvisioner),
          // neither deleted while in use, and pods' generic ephemeral volumes.
          + "persistentvolume-binder-controller,persistentvolume-protection-controller,"
          + "ephemeral-volume-controller";

  private final String kubeconfig;
  private final Profile profile;
  private int port;

  public ControllerManager(Path binary, Path runDirectory, String kubeconfig, Profile profile) {
    super(binary, runDirectory);
    this.kubeconfig = kubeconfig;
    this.profile = profile;
  }

  public void start(Duration timeout) {
    port = FreePorts.next();
    Path kubeconfigFile = runDirectory.resolve("kube-controller-manager.kubeconfig");
    Path pki = runDirectory.resolve("pki");
    PrivateFiles.write(kubeconfigFile, kubeconfig);
    process =
        newProcess(
            "kube-controller-manager",
            command(kubeconfigFile, pki),
            runDirectory.resolve("kube-controller-manager.log"),
            Map.of());
    process.start(ReadinessProbes.componentHealthz(port), timeout);
  }

  private List<String> command(Path kubeconfigFile, Path pki) {
    List<String> command = new java.util.ArrayList<>();
    command.add(binary.toString());
    command.addAll(flags(kubeconfigFile.toString(), pki.toString(), "127.0.0.1", port, profile));
    return command;
  }

  /**
   * The kube-controller-manager flags, shared with the container backend.
   *
   * @param pkiDirectory where the {@link Pki} files are, as the controller manager sees it
   */
  public static List<String> flags(
      String kubeconfig, String pkiDirectory, String bindAddress, int port, Profile profile) {
    String pki = pkiDirectory.endsWith("/") ? pkiDirectory : pkiDirectory + "/";
    return List.of(
        "--kubeconfig=" + kubeconfig,
        // Without these it admits no one to /metrics, the run's own identity included: with them,
        // the API server authenticates and authorizes each caller, as for kube-scheduler.
        "--authentication-kubeconfig=" + kubeconfig,
        "--authorization-kubeconfig=" + kubeconfig,
        "--controllers="
            + (profile == Profile.SIMULATED
                ? CONTROLLERS + "," + WORKLOAD_CONTROLLERS
                : CONTROLLERS),
        "--service-account-private-key-file=" + pki + Pki.SA_KEY,
        "--root-ca-file=" + pki + Pki.CA,
        "--leader-elect=false",
        "--bind-address=" + bindAddress,
        "--secure-port=" + port,
        "--tls-cert-file=" + pki + Pki.COMPONENTS_CERT,
        "--tls-private-key-file=" + pki + Pki.COMPONENTS_KEY,
        "--concurrent-namespace-syncs=5",
        "--profiling=false");
  }
}
