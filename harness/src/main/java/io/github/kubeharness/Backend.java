package io.github.kubeharness;

import java.util.Locale;

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
  EXISTING,
  /**
   * A kind cluster created (and deleted) by the harness: a real node whose kubelet runs pods, from
   * kube-harness's node image or upstream's {@code kindest/node}.
   */
  KIND;

  /** The lower-case name used in settings and messages. */
  public String settingValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a setting value (any case), naming its source on failure. */
  public static Backend parse(String value, String source) {
    return Settings.parseEnum(value, Backend.class, source);
  }
}
