package io.github.kubeharness.internal.junit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A test class on each cluster it ran on, by version (one per version of its matrix); closed with
 * the class.
 */
final class ClassClusters implements JUnitResource {
  private final Map<String, ClassCluster> byVersion = new LinkedHashMap<>();

  synchronized ClassCluster on(String kubernetesVersion, Supplier<ClassCluster> open) {
    ClassCluster on = byVersion.get(kubernetesVersion);
    if (on == null) {
      on = open.get();
      byVersion.put(kubernetesVersion, on);
    }
    return on;
  }

  @Override
  public synchronized void close() {
    List<ClassCluster> all = new ArrayList<>(byVersion.values());
    byVersion.clear();
    Failures failures = new Failures();
    for (ClassCluster on : all) {
      try {
        on.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    failures.throwIfAny();
  }
}
