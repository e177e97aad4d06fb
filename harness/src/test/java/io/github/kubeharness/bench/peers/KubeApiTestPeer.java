package io.github.kubeharness.bench.peers;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * fabric8's kube-api-test, started as its README shows ({@code new KubeAPIServer(config).start()},
 * offline, the test directory holding {@code k8s/<version>-linux-amd64/}), on the same etcd and
 * kube-apiserver binaries kube-harness runs. One start/stop before the timed ones, as for ours.
 *
 * <p>Two changes, both to keep every server on loopback as this project's machines require, and
 * neither on the timed path's critical work: kube-apiserver gets {@code --bind-address=127.0.0.1}
 * through kube-api-test's own flag API, and etcd — which kube-api-test starts listening on {@code
 * 0.0.0.0} with no way to change it — is a two-line shell wrapper that rewrites that address to
 * 127.0.0.1 and execs the real binary (one {@code sh} exec, a few milliseconds).
 */
public final class KubeApiTestPeer {

  private KubeApiTestPeer() {}

  /** Milliseconds of each timed {@code start()}, after one untimed warm-up. */
  public static List<Double> startTimes(Path binaries, String version, Path workDir, int runs)
      throws IOException {
    Path testDir = layout(binaries, version, workDir);
    var config =
        KubeAPIServerConfigBuilder.anAPIServerConfig()
            .withTestDir(testDir.toString())
            .withApiServerVersion(version)
            .withOfflineMode(true)
            .withUpdateKubeConfig(false)
            .withApiServerFlag("--bind-address", "127.0.0.1")
            .build();
    List<Double> samples = new ArrayList<>();
    for (int i = 0; i <= runs; i++) {
      KubeAPIServer server = new KubeAPIServer(config);
      long t0 = System.nanoTime();
      server.start();
      double ms = (System.nanoTime() - t0) / 1e6;
      server.stop();
      if (i > 0) {
        samples.add(ms);
      }
    }
    return samples;
  }

  // kube-api-test's binary layout:
  // <testDir>/k8s/<version>-linux-amd64/{etcd,kube-apiserver,kubectl}
  private static Path layout(Path binaries, String version, Path workDir) throws IOException {
    Path testDir = Files.createDirectories(workDir.resolve("kube-api-test"));
    Path dir = Files.createDirectories(testDir.resolve("k8s").resolve(version + "-linux-amd64"));
    // kube-api-test will not start without kubectl beside the other two; make bench provisions it.
    if (!Files.isExecutable(binaries.resolve("kubectl"))) {
      throw new IllegalStateException(
          "kube-api-test needs kubectl in "
              + binaries
              + " and it is not there: make bench provisions it (java -jar"
              + " target/kube-harness.jar provision --profile simulated --with-kubectl)");
    }
    for (String name : List.of("kube-apiserver", "kubectl")) {
      Path link = dir.resolve(name);
      Files.deleteIfExists(link);
      Files.createSymbolicLink(link, binaries.resolve(name));
    }
    Path etcd = dir.resolve("etcd");
    Files.deleteIfExists(etcd);
    Files.writeString(
        etcd,
        "#!/bin/sh\n"
            + "# kube-api-test listens on 0.0.0.0; this machine allows loopback only.\n"
            + "exec "
            + binaries.resolve("etcd")
            + " $(echo \"$@\" | sed 's#http://0.0.0.0:#http://127.0.0.1:#g')\n");
    Files.setPosixFilePermissions(etcd, PosixFilePermissions.fromString("rwx------"));
    return testDir;
  }
}
