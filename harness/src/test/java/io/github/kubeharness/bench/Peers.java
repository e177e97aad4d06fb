package io.github.kubeharness.bench;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.bench.peers.CrdInstallTimes;
import io.github.kubeharness.bench.peers.EnvtestPeer;
import io.github.kubeharness.bench.peers.JosdkExtensionScenario;
import io.github.kubeharness.bench.peers.KubeApiTestPeer;
import io.github.kubeharness.internal.provision.BinaryCache;
import io.github.kubeharness.internal.provision.Platform;
import io.github.kubeharness.launch.ControlPlanes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The peers kube-harness is compared with, measured in the same {@code make bench} run on the same
 * etcd and kube-apiserver binaries: fabric8's kube-api-test and controller-runtime's envtest
 * (start), and JOSDK's JUnit extension (per-test cost, CRD install). A peer that cannot be measured
 * is reported with the reason and leaves its ratio missing, which fails the run.
 */
final class Peers {

  // CRDs per batch: ours installs 50 at once as a project with many CRDs would; JOSDK's extension
  // sleeps a fixed time per CRD, so its per-CRD figure does not depend on the batch size, and 10
  // keep its five runs under two minutes.
  private static final int OUR_CRD_BATCH = 50;
  private static final int PEER_CRD_BATCH = 10;
  private static final int MAX_CRD_RUNS = 5;

  private Peers() {}

  static void measure(BenchResults results, int runs) throws Exception {
    int crdRuns = Math.min(MAX_CRD_RUNS, runs);
    ControlPlaneOptions options =
        ControlPlaneOptions.builder().withBackend(Backend.LOCAL).withAuditLog(true).build();
    Path binaries =
        new BinaryCache(options.cacheDirectory(), options.kubernetesVersion(), Platform.current())
            .directory();
    Path work = Files.createDirectories(Path.of("target", "bench", "peers"));

    measure(
        results,
        "peer_kube_api_test_start_ms",
        () -> KubeApiTestPeer.startTimes(binaries, options.kubernetesVersion(), work, runs));
    measure(
        results,
        "peer_envtest_start_ms",
        () ->
            EnvtestPeer.startTimes(
                Path.of(
                    System.getProperty("kubeharness.bench.envtest", "target/bench/envtest-peer")),
                binaries,
                runs));

    // The per-test and CRD figures on one control plane of the profile @ControllerTest uses by
    // default, as OverheadScenario has.
    try (ControlPlane controlPlane = ControlPlanes.create(options)) {
      controlPlane.start();
      JosdkExtensionScenario.config = controlPlane.clientConfig();
      measure(
          results,
          "peer_josdk_junit_per_test_ms",
          () -> {
            List<Double> durations = HarnessBenchmark.timedTests(JosdkExtensionScenario.class);
            return durations.subList(1, durations.size());
          });
      measure(
          results,
          "crd_install_ms_per_crd",
          () -> CrdInstallTimes.kubeHarness(controlPlane, work, crdRuns, OUR_CRD_BATCH));
      measure(
          results,
          "peer_josdk_junit_crd_install_ms_per_crd",
          () ->
              CrdInstallTimes.josdkExtension(controlPlane.clientConfig(), crdRuns, PEER_CRD_BATCH));
    }
  }

  private interface Samples {
    List<Double> take() throws Exception;
  }

  private static void measure(BenchResults results, String name, Samples samples) {
    try {
      results.record(name, samples.take());
    } catch (Exception e) {
      results.notMeasured(name, e.toString());
    }
  }
}
