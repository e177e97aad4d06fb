package io.github.kubeharness;

/**
 * How the further clusters of {@code @ControllerTest(clusters)} are made on the local backend
 * (setting {@code kubeharness.clusters.etcd}; see docs/multi-cluster.md). The container, k3s and
 * kind backends always make each cluster a whole control plane of its own.
 */
public enum ClusterEtcd {
  /**
   * Each further cluster is an apiserver on the first cluster's etcd, under a key prefix of its
   * own: one apiserver boot, started while the first cluster's (the default).
   */
  SHARED,
  /**
   * Each further cluster is a whole control plane with an etcd of its own: what one cluster's etcd
   * goes through (stopped, compacted, full) leaves the others alone; each costs a whole start.
   */
  OWN
}
