package io.github.kubeharness.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The performance targets, in one place: {@code make bench} checks each measured median against its
 * target, and each peer's median against ours, and exits non-zero on a miss. (A p90 over its target
 * is flagged, not failed: on a shared 2-core machine a p90 is one slow run out of ten.) Figures
 * without a target are reported only.
 */
final class Targets {

  /** Upper bounds of medians (ms unless the name says otherwise). */
  static final Map<String, Double> MEDIAN_MAX = new LinkedHashMap<>();

  /** A peer's median must be at least {@code atLeast} times ours. */
  record PeerRatio(String peer, String ours, double atLeast) {}

  // Issue 44's goals: 5x the peers' start in the same run, a fresh JVM's first start within a
  // second, 15 ms per test, event -> reconcile no worse than the README's table of 2026-12-05
  // (5.2 ms). The old targets (2x, 2000 ms, 150 ms, 50 ms) let a +80 % start pass unnoticed.
  static final List<PeerRatio> PEER_RATIOS =
      List.of(
          // kube-api-test and envtest start etcd and kube-apiserver only: our minimal profile.
          new PeerRatio("peer_kube_api_test_start_ms", "local_minimal_start_ms", 5.0),
          new PeerRatio("peer_envtest_start_ms", "local_minimal_start_ms", 5.0),
          new PeerRatio("peer_josdk_junit_per_test_ms", "per_test_overhead_ms", 2.0),
          new PeerRatio("peer_josdk_junit_crd_install_ms_per_crd", "crd_install_ms_per_crd", 5.0));

  static {
    MEDIAN_MAX.put("local_minimal_start_ms", 2000.0);
    MEDIAN_MAX.put("local_standard_start_ms", 3000.0);
    MEDIAN_MAX.put("local_simulated_start_ms", 3000.0);
    MEDIAN_MAX.put("local_minimal_first_start_new_jvm_ms", 1000.0);
    MEDIAN_MAX.put("deployment_ready_ms", 2000.0);
    MEDIAN_MAX.put("statefulset_ready_ms", 3000.0);
    MEDIAN_MAX.put("per_test_overhead_ms", 15.0);
    MEDIAN_MAX.put("per_test_overhead_growth", 1.2);
    MEDIAN_MAX.put("event_to_reconcile_ms", 5.2);
    MEDIAN_MAX.put("kill9_cleanup_ms", 5000.0);
    MEDIAN_MAX.put("controlplane_rss_mb", 400.0);
    MEDIAN_MAX.put("reuse_attach_ms", 100.0);
    // @ControllerTest(clusters): each further cluster launched inside the first one's boot adds its
    // apiserver's CPU-seconds over the cores (~0.54 / ~0.95 s on 2 cores), well under one whole
    // start (~0.93 / ~2.4 s); a further cluster started only after the first would miss these.
    MEDIAN_MAX.put("local_minimal_per_extra_cluster_ms", 700.0);
    MEDIAN_MAX.put("local_standard_per_extra_cluster_ms", 1400.0);
    // A node that boots systemd, containerd and kubeadm's control plane: tens of seconds (kind's
    // own quick start takes 20-60 s); attaching to a kept cluster must stay about a second.
    MEDIAN_MAX.put("kind_cold_start_ms", 35000.0);
    MEDIAN_MAX.put("kind_attach_ms", 1500.0);
  }

  private Targets() {}
}
