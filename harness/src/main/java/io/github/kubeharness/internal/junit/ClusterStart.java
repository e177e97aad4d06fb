package io.github.kubeharness.internal.junit;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.shared.RunningControlPlanes;
import io.github.kubeharness.internal.shared.RunningControlPlanes.Lease;

/**
 * A run's hold on one control plane of the JVM's registry ({@link RunningControlPlanes}), kept in
 * the root store so that JUnit lets go of it at the end of the run: the control plane then stops,
 * unless a Spring context or a Quarkus test resource of this JVM holds it too. Made when the entry
 * is (the control plane made, not started), started by the first {@link #get()}, then the cluster
 * or why it did not start. A version that cannot be had (a failed build, a start that timed out)
 * then fails each of its tests at once with the first attempt's reason, instead of every test
 * trying again for minutes.
 *
 * <p>Made before it starts so that the clusters of {@code @ControllerTest(clusters)} can be made
 * beside the first one and start while it does ({@link #beside}).
 */
final class ClusterStart implements JUnitResource {

  private final ControlPlaneOptions options;
  // The cluster's name with @ControllerTest(clusters); null for the one unnamed cluster.
  private final String name;
  // Null when it could not even be asked for (failure says why).
  private final Lease lease;
  private final boolean beside;
  private SharedCluster cluster;
  private RuntimeException failure;
  // Started (or found unable to be made), and whether a test was given its failure as it was.
  private boolean attempted;
  private boolean failureSeen;

  private ClusterStart(
      ControlPlaneOptions options,
      String name,
      Lease lease,
      boolean beside,
      RuntimeException failure) {
    this.options = options;
    this.name = name;
    this.lease = lease;
    this.beside = beside;
    this.failure = failure;
    this.attempted = failure != null;
  }

  /** The shared cluster of {@code options}, not started yet. */
  static ClusterStart of(ControlPlaneOptions options) {
    try {
      ClasspathCheck.requireUsableFabric8();
    } catch (RuntimeException e) {
      return new ClusterStart(options, null, null, false, e);
    }
    return new ClusterStart(options, null, RunningControlPlanes.lease(options), false, null);
  }

  /**
   * Cluster {@code name} beside {@code first}, not started yet; started while {@code first} starts
   * or after ({@code ownEtcd}: a whole control plane of its own on the local backend too). A
   * refusal (a backend without clusters) names {@code where}; a failure the cluster.
   */
  static ClusterStart beside(
      ControlPlaneOptions options, ClusterStart first, String name, boolean ownEtcd, String where) {
    if (first.lease == null) {
      return new ClusterStart(
          options,
          name,
          null,
          true,
          new KubeHarnessException(
              "Cluster '" + name + "' was not started: the first cluster could not be made"));
    }
    return new ClusterStart(
        options,
        name,
        RunningControlPlanes.leaseBeside(first.lease, name, ownEtcd, where),
        true,
        null);
  }

  /**
   * The cluster, started by the first call; its start's failure, the first time, then a failure
   * that names it as earlier.
   */
  synchronized SharedCluster get() {
    if (!attempted) {
      attempted = true;
      try {
        // Could not be made (a refusal naming the class): said as it is.
        lease.made();
      } catch (RuntimeException e) {
        failure = e;
      }
      try {
        // Only the first cluster sweeps what dead JVMs left: the further ones are never kept.
        boolean sweep = !beside && options.reuse();
        if (failure == null) {
          cluster =
              lease.attachment(SharedCluster.class, started -> SharedCluster.on(started, sweep));
        }
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
    if (lease != null) {
      lease.close();
    }
  }
}
