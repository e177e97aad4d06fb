package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.internal.process.Waits;

/**
 * What a started control plane shows before its first test may run, whatever runs it: the {@code
 * default} namespace (kube-apiserver's bootstrap controller makes it) and, with
 * kube-controller-manager, the {@code default} ServiceAccount (pods rely on it).
 */
final class SystemObjects {

  private SystemObjects() {}

  public static void awaitDefaultNamespace(KubernetesClient client, long deadline) {
    Waits.until(
        "the default namespace to be created by kube-apiserver",
        deadline,
        () -> client.namespaces().withName("default").get() != null);
  }

  public static void awaitDefaultServiceAccount(KubernetesClient client, long deadline) {
    Waits.until(
        "the default ServiceAccount to be created by kube-controller-manager",
        deadline,
        () -> client.serviceAccounts().inNamespace("default").withName("default").get() != null);
  }
}
