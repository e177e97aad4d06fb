package io.github.kubeharness;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.util.List;

/**
 * A running (or startable) Kubernetes control plane: a real API server the tests talk to.
 *
 * <pre>{@code
 * try (ControlPlane cp = ControlPlane.local(ControlPlaneOptions.defaults())) {
 *   cp.start();
 *   try (KubernetesClient client = cp.newClient()) { ... }
 * }
 * }</pre>
 */
public interface ControlPlane extends AutoCloseable {

  /** A control plane of local etcd and kube-apiserver processes (not started yet). */
  static ControlPlane local(ControlPlaneOptions options) {
    return new LocalControlPlane(options);
  }

  /**
   * A control plane of the backend {@code options} name ({@link Backend#AUTO} decides here, and
   * logs its choice and why once). Not started yet.
   */
  static ControlPlane create(ControlPlaneOptions options) {
    return io.github.kubeharness.internal.backend.Backends.create(options);
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

  /** The components this control plane runs. */
  Profile profile();

  /** Base URL of the API server, e.g. {@code https://127.0.0.1:41234}. */
  String apiServerUrl();

  /** The cluster-admin kubeconfig (YAML). */
  String kubeconfig();

  /** A file holding {@link #kubeconfig()}, for {@code kubectl} and child processes. */
  Path kubeconfigFile();

  /** The API server's audit log (JSON lines), when this backend writes one the test can read. */
  default java.util.Optional<Path> auditLogFile() {
    return java.util.Optional.empty();
  }

  /** fabric8 client configuration for the cluster admin. */
  default Config clientConfig() {
    return Config.fromKubeconfig(kubeconfig());
  }

  /** A new cluster-admin client; the caller closes it. */
  default KubernetesClient newClient() {
    return new KubernetesClientBuilder().withConfig(clientConfig()).build();
  }

  /**
   * Creates an identity authenticated by a client certificate, with no permissions beyond what RBAC
   * grants its name or groups (envtest's {@code AddUser}). Use it to test RBAC.
   */
  KubeUser addUser(String name, List<String> groups);
}
