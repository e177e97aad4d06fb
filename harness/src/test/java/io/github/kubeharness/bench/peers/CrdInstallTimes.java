package io.github.kubeharness.bench.peers;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.TestCrds;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Milliseconds per CRD to install a batch of CRDs until they can be used: kube-harness's {@code
 * installCrds} (waits for Established and discovery, tells the garbage collector) beside JOSDK's
 * extension ({@code applyCrd}: server-side apply, then a fixed sleep per CRD). Each run installs a
 * batch of new CRDs in a group of its own, so nothing is skipped as already installed.
 */
public final class CrdInstallTimes {

  private CrdInstallTimes() {}

  public static List<Double> kubeHarness(
      ControlPlane controlPlane, Path workDir, int runs, int crds) throws IOException {
    List<Double> perCrd = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      Path dir = Files.createDirectories(workDir.resolve("crds-" + run));
      for (CustomResourceDefinition crd : batch("kh" + run, crds)) {
        Files.writeString(
            dir.resolve(crd.getMetadata().getName() + ".yaml"), Serialization.asYaml(crd));
      }
      long t0 = System.nanoTime();
      int installed = controlPlane.installCrds(List.of(dir.toString()), List.of());
      perCrd.add((System.nanoTime() - t0) / 1e6 / crds);
      if (installed != crds) {
        throw new IllegalStateException("installCrds installed " + installed + " of " + crds);
      }
    }
    return perCrd;
  }

  public static List<Double> josdkExtension(Config config, int runs, int crds) {
    List<Double> perCrd = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      List<CustomResourceDefinition> batch = batch("josdk" + run, crds);
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        LocallyRunOperatorExtension extension =
            LocallyRunOperatorExtension.builder().withKubernetesClient(client).build();
        long t0 = System.nanoTime();
        batch.forEach(extension::applyCrd);
        perCrd.add((System.nanoTime() - t0) / 1e6 / crds);
        batch.forEach(crd -> client.resource(crd).delete());
      }
    }
    return perCrd;
  }

  private static List<CustomResourceDefinition> batch(String prefix, int crds) {
    List<CustomResourceDefinition> batch = new ArrayList<>();
    for (int i = 0; i < crds; i++) {
      batch.add(TestCrds.freeForm(prefix + ".bench.kubeharness.io", "Thing" + i, "things" + i));
    }
    return batch;
  }
}
