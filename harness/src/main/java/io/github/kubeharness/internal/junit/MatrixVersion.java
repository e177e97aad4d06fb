package io.github.kubeharness.internal.junit;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.provision.KubernetesReleases;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One version of a class's matrix: as asked ({@code 1.36}) and as resolved ({@code 1.36.3}), or why
 * it cannot be had — which fails only that version's tests. Resolved once per JVM.
 */
record MatrixVersion(String asked, String version, RuntimeException failure) {

  private static final Map<String, MatrixVersion> RESOLVED = new ConcurrentHashMap<>();

  /** The matrix of {@code config}: its versions resolved, duplicates after resolution dropped. */
  static List<MatrixVersion> of(ExtensionConfig config) {
    ControlPlaneOptions options = config.controlPlane();
    List<String> asked =
        config.matrix().isEmpty() ? List.of(options.kubernetesVersion()) : config.matrix();
    List<MatrixVersion> versions = new ArrayList<>();
    for (String a : asked) {
      MatrixVersion v =
          RESOLVED.computeIfAbsent(options.cacheDirectory() + "|" + a, k -> resolve(options, a));
      if (versions.stream().noneMatch(o -> o.failure == null && o.label().equals(v.label()))) {
        versions.add(v);
      }
    }
    return versions;
  }

  private static MatrixVersion resolve(ControlPlaneOptions options, String asked) {
    try {
      return new MatrixVersion(asked, new KubernetesReleases(options).resolve(asked), null);
    } catch (RuntimeException e) {
      return new MatrixVersion(asked, null, e);
    }
  }

  /** The version to show: the resolved one, else the one asked. */
  String label() {
    return version != null ? version : asked;
  }
}
