package io.github.kubeharness.internal.junit;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.backend.Backends;
import io.github.kubeharness.internal.backend.HarnessControlPlane;

/**
 * One attempt to start a shared cluster, kept in the root store: the control plane, made when the
 * entry is, started by the first {@link #get()}, then the cluster or why it did not start. A
 * version that cannot be had (a failed build, a start that timed out) then fails each of its tests
 * at once with the first attempt's reason, instead of every test trying again for minutes.
 *
 * <p>Made before it starts so that the clusters of {@code @ControllerTest(clusters)} can be made
 * beside the first one and start while it does ({@link #beside}).
 */
final class ClusterStart implements JUnitResource {

  private final ControlPlaneOptions options;
  // The cluster's name with @ControllerTest(clusters); null for the one unnamed cluster.
  private final String name;
  // Null when it could not even be made (failure says why).
  private final HarnessControlPlane controlPlane;
  private final boolean beside;
  private SharedCluster cluster;
  private RuntimeException failure;
  // Started (or found unable to be made), and whether a test was given its failure as it was.
  private boolean attempted;
  private boolean failureSeen;

  private ClusterStart(
      ControlPlaneOptions options,
      String name,
      HarnessControlPlane controlPlane,
      boolean beside,
      RuntimeException failure) {
    this.options = options;
    this.name = name;
    this.controlPlane = controlPlane;
    this.beside = beside;
    this.failure = failure;
    this.attempted = failure != null;
  }

  /** The shared cluster of {@code options}, not started yet. */
  static ClusterStart of(ControlPlaneOptions options) {
    try {
      ClasspathCheck.requireUsableFabric8();
      return new ClusterStart(options, null, Backends.newControlPlane(options), false, null);
    } catch (RuntimeException e) {
      return new ClusterStart(options, null, null, false, e);
    }
  }

  /**
   * Cluster {@code name} beside {@code first}, not started yet; started while {@code first} starts
   * or after ({@code ownEtcd}: a whole control plane of its own on the local backend too). A
   * refusal (a backend without clusters) names {@code where}; a failure the cluster.
   */
  static ClusterStart beside(
      ControlPlaneOptions options, ClusterStart first, String name, boolean ownEtcd, String where) {
    if (first.controlPlane == null) {
      return new ClusterStart(
          options,
          name,
          null,
          true,
          new KubeHarnessException(
              "Cluster '" + name + "' was not started: the first cluster could not be made"));
    }
    try {
      return new ClusterStart(
          options,
          name,
          Backends.newClusterBeside(first.controlPlane, name, ownEtcd, where),
          true,
          null);
    } catch (RuntimeException e) {
      return new ClusterStart(options, name, null, true, e);
    }
  }

  /**
   * The cluster, started by the first call; its start's failure, the first time, then a failure
   * that names it as earlier.
   */
  synchronized SharedCluster get() {
    if (!attempted) {
      attempted = true;
      try {
        cluster =
            beside
                ? SharedCluster.startBeside(controlPlane)
                : SharedCluster.start(options, controlPlane);
      } catch (RuntimeException e) {
        failure = namingItself(e);
      }
    }
    if (failure == null) {
      return cluster;
    }
    if (!failureSeen) {
      failureSeen = true;
      throw failure;
    }
    throw new KubeHarnessException(
        (name == null ? "The " : "Cluster '" + name + "', the ")
            + options.backend().settingValue()
            + " control plane of Kubernetes "
            + options.kubernetesVersion()
            + " failed to start earlier in this run, so it is not tried again: "
            + failure.getMessage(),
        failure);
  }

  // A further cluster's failure starts with its name (the local backend's says more already).
  private RuntimeException namingItself(RuntimeException e) {
    if (name == null || !beside || String.valueOf(e.getMessage()).startsWith("Cluster '" + name)) {
      return e;
    }
    return new KubeHarnessException("Cluster '" + name + "' failed to start: " + e.getMessage(), e);
  }

  @Override
  public synchronized void close() {
    if (cluster != null) {
      cluster.close();
    }
  }
}
