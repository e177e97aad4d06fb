package io.github.kubeharness;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.internal.ApiSeam;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A running (or startable) Kubernetes control plane: a real API server the tests talk to.
 *
 * <pre>{@code
 * try (ControlPlane cp = ControlPlane.create(ControlPlaneOptions.defaults())) {
 *   cp.start();
 *   cp.installCrds(List.of("config/crd/bases"), List.of());
 *   try (KubernetesClient client = cp.newClient()) { ... }
 * }
 * }</pre>
 *
 * <p>Every backend answers every method; what a backend cannot do (a client certificate without the
 * cluster's CA key) fails with the reason and the alternative.
 */
public interface ControlPlane extends AutoCloseable {

  /** A control plane of local etcd and kube-apiserver processes (not started yet). */
  static ControlPlane local(ControlPlaneOptions options) {
    // The local options these options hold (auto's are what a local choice runs with), else the
    // local backend's settings.
    return ApiSeam.localControlPlane(options);
  }

  /**
   * A control plane of the backend {@code options} name ({@link Backend#AUTO} decides here, and
   * logs its choice and why once). Not started yet.
   */
  static ControlPlane create(ControlPlaneOptions options) {
    return ApiSeam.controlPlane(options);
  }

  /** Starts the control plane and waits until it is ready. Idempotent. */
  void start();

  /** Stops every component and deletes the run directory. Idempotent. */
  void stop();

  /** Same as {@link #stop()}. */
  @Override
  default void close() {
    stop();
  }

  /** True between a successful {@link #start()} and {@link #stop()}. */
  boolean isRunning();

  /** Where this control plane comes from ({@link Backend#AUTO} resolved). */
  Backend backend();

  /** The components this control plane runs. */
  Profile profile();

  /**
   * The Kubernetes version the API server reports ({@code /version}'s {@code gitVersion} without
   * the {@code v}): {@code 1.36.3}, or {@code 1.37.2+k3s1} on k3s. What a test branches on when a
   * behaviour differs between the versions of a {@link
   * io.github.kubeharness.junit.ControllerTest#kubernetesVersions() matrix}.
   */
  String kubernetesVersion();

  /** Base URL of the API server, e.g. {@code https://127.0.0.1:41234} (no trailing slash). */
  String apiServerUrl();

  /** The cluster-admin kubeconfig (YAML). */
  String kubeconfig();

  /** A file holding {@link #kubeconfig()}, for {@code kubectl} and child processes. */
  Path kubeconfigFile();

  /** The API server's audit log (JSON lines), when this backend writes one the test can read. */
  Optional<Path> auditLogFile();

  /**
   * The directory of this run's component logs, certificates and kubeconfigs, when kube-harness
   * runs the components (deleted on stop).
   */
  Optional<Path> logDirectory();

  /** fabric8 client configuration for the cluster admin. */
  default Config clientConfig() {
    return Config.fromKubeconfig(kubeconfig());
  }

  /** A new cluster-admin client; the caller closes it. */
  default KubernetesClient newClient() {
    return new KubernetesClientBuilder().withConfig(clientConfig()).build();
  }

  /**
   * Makes local Docker images available to the cluster's nodes ({@code kind load docker-image}), so
   * pods can run an image that was just built (use {@code imagePullPolicy: IfNotPresent} or {@code
   * Never}, and a tag other than {@code latest}).
   *
   * @throws KubeHarnessException on backends without {@link Backend.Feature#LOAD_IMAGE} (only
   *     {@code kind} runs pods from local images), naming those that have it
   */
  default void loadImage(String... images) {
    throw backend().unsupported(Backend.Feature.LOAD_IMAGE, null, "loadImage");
  }

  /**
   * Faults to inject into the controllers' API traffic ({@link Faults}): dropped watches, an API
   * server restart, requests answered with errors or delayed.
   *
   * @throws KubeHarnessException on backends without {@link Backend.Feature#FAULTS} (only {@code
   *     local} runs the API server with the fault proxy in front), naming those that have it
   */
  default Faults faults() {
    throw backend().unsupported(Backend.Feature.FAULTS, null, "faults()");
  }

  /**
   * Creates an identity authenticated by a client certificate, with no permissions beyond what RBAC
   * grants its name or groups (envtest's {@code AddUser}). Use it to test RBAC.
   *
   * @throws UnsupportedOperationException on a backend whose CA key kube-harness does not hold
   */
  KubeUser addUser(String name, List<String> groups);

  /**
   * A kubeconfig that authenticates as the ServiceAccount {@code namespace/name} with a one-hour
   * token from the TokenRequest API: what a pod of that ServiceAccount would present. Use it to run
   * an operator binary under its deployed RBAC.
   */
  String serviceAccountKubeconfig(String namespace, String name);

  /**
   * Installs CRDs from files, directories or {@code classpath:} resources, and CRDs generated from
   * fabric8 custom resource classes; returns once each is Established and served by discovery. A
   * CRD already installed with the same content is skipped. New resource types are made known to
   * the garbage collector at once (the controller manager kube-harness runs is restarted; it would
   * otherwise notice them only after up to 30 s).
   *
   * @return how many CRDs were new or changed
   */
  int installCrds(List<String> crds, List<Class<?>> crdClasses);

  /**
   * Applies manifests (files, directories of YAML, {@code classpath:} resources) as {@code kubectl
   * apply --server-side} would: CRDs first, as {@link #installCrds}, then every other object in
   * file order.
   *
   * @return how many objects were applied, CRDs included
   */
  int apply(List<String> manifests);
}
