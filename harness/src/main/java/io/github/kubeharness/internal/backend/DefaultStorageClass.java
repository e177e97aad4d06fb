package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.simulation.StorageSimulation;

/**
 * The StorageClass the {@code simulated} profile marks as the cluster's default, so that a claim
 * naming no class (a StatefulSet's claim template, typically) gets one from the API server's {@code
 * DefaultStorageClass} admission, as on kind or a cloud cluster.
 */
final class DefaultStorageClass {

  static final String DEFAULT_ANNOTATION = "storageclass.kubernetes.io/is-default-class";

  private DefaultStorageClass() {}

  /**
   * Creates or updates {@code name}. {@code Immediate}: a claim binds as soon as it is made, as an
   * operator's tests of it usually expect; the provisioner serves {@code WaitForFirstConsumer}
   * classes as well.
   */
  public static void install(KubernetesClient client, String name) {
    StorageClass storageClass =
        new StorageClassBuilder()
            .withNewMetadata()
            .withName(name)
            .addToAnnotations(DEFAULT_ANNOTATION, "true")
            .endMetadata()
            .withProvisioner(StorageSimulation.PROVISIONER)
            .withReclaimPolicy("Delete")
            .withVolumeBindingMode("Immediate")
            .build();
    // Server-side apply: a JVM attaching to a kept control plane applies it again harmlessly, and
    // keeps a failure a test injected there (StorageSimulation's annotation is not ours).
    client.resource(storageClass).fieldManager("kube-harness").forceConflicts().serverSideApply();
  }
}
