package io.github.kubeharness.simulation;

import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.Profile;
import io.github.kubeharness.Settings;
import java.util.Objects;

/**
 * Steers the {@link Profile#SIMULATED simulated} profile's storage: its provisioner, which creates
 * a PersistentVolume for each claim of a StorageClass naming {@value #PROVISIONER} (the default
 * class {@link Settings#SIMULATED_STORAGE_CLASS}, {@code standard}, does), and which can be made to
 * fail, so an operator's "stuck on storage" path can be tested. From {@link Simulation#storage()}.
 *
 * <pre>{@code
 * simulation.storage().failProvisioning("quota exhausted"); // new claims stay Pending, with an event
 * simulation.storage().restoreProvisioning();               // and bind on the next retry
 * }</pre>
 *
 * <p>A failure is the annotation {@value #FAIL_ANNOTATION} (its value the message) on a
 * StorageClass, which fails every claim of that class, or on a claim (a StatefulSet's claim
 * template, say), which fails that claim. The provisioner reads it before each attempt; a failed
 * claim gets a {@code Warning ProvisioningFailed} event, as from a real provisioner, and is tried
 * again every two seconds.
 */
public final class StorageSimulation {

  /** The provisioner name a StorageClass gives to be served by the simulated provisioner. */
  public static final String PROVISIONER = "kube-harness.io/simulated";

  /** On a StorageClass or a claim: provisioning fails, with the annotation's value as message. */
  public static final String FAIL_ANNOTATION = "kube-harness.io/simulate-provisioning-failure";

  /** The reason of the event a failed provisioning leaves on the claim, as upstream's. */
  public static final String FAILED_REASON = "ProvisioningFailed";

  private static final String DEFAULT_CLASS_ANNOTATION =
      "storageclass.kubernetes.io/is-default-class";

  private final ControlPlane controlPlane;
  private final KubernetesClient client;

  /**
   * Steers {@code controlPlane}'s storage through {@code client} (which may edit StorageClasses).
   */
  public StorageSimulation(ControlPlane controlPlane, KubernetesClient client) {
    this.controlPlane = Objects.requireNonNull(controlPlane, "controlPlane");
    this.client = Objects.requireNonNull(client, "client");
  }

  /** The name of the default StorageClass the harness installed. */
  public String defaultClass() {
    requireSimulated();
    return client.storage().v1().storageClasses().list().getItems().stream()
        .filter(c -> PROVISIONER.equals(c.getProvisioner()))
        .filter(c -> "true".equals(annotation(c, DEFAULT_CLASS_ANNOTATION)))
        .map(c -> c.getMetadata().getName())
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "No default StorageClass served by "
                        + PROVISIONER
                        + " is installed: "
                        + Settings.describe(Settings.SIMULATED_STORAGE_CLASS)
                        + " is 'none', or the class was deleted. Name one there, or pass the"
                        + " class to failProvisioning(storageClass, message)."));
  }

  /**
   * Creates a StorageClass served by the simulated provisioner ({@code Immediate} or {@code
   * WaitForFirstConsumer}), reclaim policy {@code Delete}; not the default class.
   */
  public StorageClass createClass(String name, String volumeBindingMode) {
    requireSimulated();
    return client
        .resource(
            new StorageClassBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withProvisioner(PROVISIONER)
                .withReclaimPolicy("Delete")
                .withVolumeBindingMode(volumeBindingMode)
                .build())
        .create();
  }

  /** Every claim of the default class fails to provision with {@code message}, until restored. */
  public void failProvisioning(String message) {
    failProvisioning(defaultClass(), message);
  }

  /**
   * Every claim of {@code storageClass} fails to provision with {@code message}, until restored.
   */
  public void failProvisioning(String storageClass, String message) {
    Objects.requireNonNull(message, "message");
    annotateClass(storageClass, "\"" + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
  }

  /** The default class provisions again; its pending claims bind on the next retry. */
  public void restoreProvisioning() {
    restoreProvisioning(defaultClass());
  }

  /** {@code storageClass} provisions again; its pending claims bind on the next retry. */
  public void restoreProvisioning(String storageClass) {
    annotateClass(storageClass, "null");
  }

  private void annotateClass(String storageClass, String json) {
    requireSimulated();
    client
        .storage()
        .v1()
        .storageClasses()
        .withName(storageClass)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"" + FAIL_ANNOTATION + "\":" + json + "}}}");
  }

  private static String annotation(StorageClass storageClass, String key) {
    return storageClass.getMetadata().getAnnotations() == null
        ? null
        : storageClass.getMetadata().getAnnotations().get(key);
  }

  private void requireSimulated() {
    if (controlPlane.profile() != Profile.SIMULATED) {
      throw new IllegalStateException(
          "StorageSimulation steers the simulated profile's provisioner, but this control plane"
              + " runs the "
              + controlPlane.profile().settingValue()
              + " profile on the "
              + controlPlane.backend().settingValue()
              + " backend, where no simulated provisioner runs (see docs/storage.md for what"
              + " storage each backend offers). Use @ControllerTest(profile = \"simulated\").");
    }
  }
}
