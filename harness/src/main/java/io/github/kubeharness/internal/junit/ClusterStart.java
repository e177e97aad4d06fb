package io.github.kubeharness.internal.junit;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;

/**
 * One attempt to start a shared cluster, kept in the root store: the cluster, or why it did not
 * start. A version that cannot be had (a failed build, a start that timed out) then fails each of
 * its tests at once with the first attempt's reason, instead of every test trying again for
 * minutes.
 */
final class ClusterStart implements JUnitResource {

  private final ControlPlaneOptions options;
  // The cluster's name with @ControllerTest(clusters); null for the one unnamed cluster.
  private final String name;
  private final SharedCluster cluster;
  private final RuntimeException failure;
  private boolean failureSeen;

  private ClusterStart(
      ControlPlaneOptions options, String name, SharedCluster cluster, RuntimeException e) {
    this.options = options;
    this.name = name;
    this.cluster = cluster;
    this.failure = e;
  }

  static ClusterStart attempt(ControlPlaneOptions options) {
    try {
      return new ClusterStart(options, null, SharedCluster.start(options), null);
    } catch (RuntimeException e) {
      return new ClusterStart(options, null, null, e);
    }
  }

  /**
   * One attempt to start cluster {@code name} beside {@code first}; a failure names the cluster.
   */
  static ClusterStart beside(
      ControlPlaneOptions options, SharedCluster first, String name, String where) {
    try {
      return new ClusterStart(options, name, SharedCluster.startBeside(first, name, where), null);
    } catch (RuntimeException e) {
      return new ClusterStart(options, name, null, e);
    }
  }

  /** The cluster; its start's failure, the first time, then a failure that names it as earlier. */
  synchronized SharedCluster get() {
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

  @Override
  public void close() {
    if (cluster != null) {
      cluster.close();
    }
  }
}
