package io.github.kubeharness;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Where a control plane comes from. */
public enum Backend {
  /**
   * Chosen at start: {@code existing} when envtest's {@code USE_EXISTING_CLUSTER=true}; {@code
   * local} when the binaries are already provisioned; {@code container} when Docker is reachable
   * and Testcontainers is on the classpath; else {@code local}, provisioning the binaries.
   */
  AUTO,
  /** etcd, kube-apiserver (and kube-controller-manager) as child processes. */
  LOCAL,
  /** The same components as Testcontainers ({@code registry.k8s.io} images). */
  CONTAINER,
  /** A k3s cluster in a Testcontainer ({@code rancher/k3s}): pods really run. */
  K3S,
  /** The cluster of the current kubeconfig (kind, or any cluster). */
  EXISTING;

  /** Parses a setting value (any case), naming its source on failure. */
  public static Backend parse(String value, String source) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new KubeHarnessException(
          "Unknown backend '"
              + value
              + "' in "
              + source
              + ". Expected one of: "
              + Arrays.stream(values())
                  .map(b -> b.name().toLowerCase(Locale.ROOT))
                  .collect(Collectors.joining(", ")));
    }
  }
}
