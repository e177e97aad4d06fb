package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.github.kubeharness.simulation.StorageSimulation;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code simulated} profile's dynamic provisioner, in this JVM: it does what an external
 * provisioner does, so that kube-controller-manager's persistent-volume binder, the scheduler's
 * volume binding and the StatefulSet controller see the upstream protocol. It provisions the claims
 * that the binder annotated {@code volume.kubernetes.io/storage-provisioner: }{@value
 * StorageSimulation#PROVISIONER} (once a node is selected, for {@code WaitForFirstConsumer}), by
 * creating a PersistentVolume pre-bound to the claim, which the binder then binds; and it deletes
 * the volumes it made once their claim is gone and their reclaim policy is {@code Delete}.
 *
 * <p>No data is written: KWOK's nodes mount nothing. The volume is a {@code hostPath} under this
 * run's directory (never created), so nothing it names lies outside what the run owns. Claims and
 * volumes are re-examined every two seconds, which retries a failed provisioning.
 */
final class SimulatedProvisioner implements AutoCloseable {

  static final String PROVISIONER_ANNOTATION = "volume.kubernetes.io/storage-provisioner";
  static final String SELECTED_NODE_ANNOTATION = "volume.kubernetes.io/selected-node";
  static final String PROVISIONED_BY_ANNOTATION = "pv.kubernetes.io/provisioned-by";
  private static final long RESYNC_MILLIS = 2000;

  private final KubernetesClient client;
  private final Path volumeRoot;
  private final ClaimEvents events;
  private final Map<String, String> lastFailure = new ConcurrentHashMap<>();
  private SharedIndexInformer<PersistentVolumeClaim> claims;
  private SharedIndexInformer<PersistentVolume> volumes;

  private SimulatedProvisioner(KubernetesClient client, Path volumeRoot) {
    this.client = client;
    this.volumeRoot = volumeRoot;
    this.events = new ClaimEvents(client);
  }

  /**
   * Starts provisioning through {@code client} (closed with this), volumes named under {@code
   * volumeRoot}.
   */
  public static SimulatedProvisioner start(KubernetesClient client, Path volumeRoot) {
    SimulatedProvisioner provisioner = new SimulatedProvisioner(client, volumeRoot);
    try {
      // Not waited for: a claim made before the first list is in that list. Waiting would add
      // two round trips to every simulated start.
      provisioner.claims =
          client.persistentVolumeClaims().inAnyNamespace().runnableInformer(RESYNC_MILLIS);
      provisioner.claims.addEventHandler(handler(provisioner::provision)).start();
      provisioner.volumes = client.persistentVolumes().runnableInformer(RESYNC_MILLIS);
      provisioner.volumes.addEventHandler(handler(provisioner::reclaim)).start();
      return provisioner;
    } catch (RuntimeException e) {
      provisioner.close();
      throw e;
    }
  }

  private static <T> ResourceEventHandler<T> handler(java.util.function.Consumer<T> action) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        action.accept(object);
      }

      @Override
      public void onUpdate(T old, T object) {
        action.accept(object);
      }

      @Override
      public void onDelete(T object, boolean unknownFinalState) {}
    };
  }

  private void provision(PersistentVolumeClaim claim) {
    ObjectMeta meta = claim.getMetadata();
    if (claim.getSpec().getVolumeName() != null
        || meta.getDeletionTimestamp() != null
        || !StorageSimulation.PROVISIONER.equals(annotation(meta, PROVISIONER_ANNOTATION))) {
      return;
    }
    try {
      StorageClass storageClass =
          client
              .storage()
              .v1()
              .storageClasses()
              .withName(claim.getSpec().getStorageClassName())
              .get();
      if (storageClass == null) {
        return; // the binder annotated it from a class since deleted: it reports that itself
      }
      String node = annotation(meta, SELECTED_NODE_ANNOTATION);
      if ("WaitForFirstConsumer".equals(storageClass.getVolumeBindingMode()) && node == null) {
        return; // the scheduler selects a node when a pod using it is scheduled
      }
      Optional<String> failure =
          Optional.ofNullable(annotation(meta, StorageSimulation.FAIL_ANNOTATION))
              .or(
                  () ->
                      Optional.ofNullable(
                          annotation(
                              storageClass.getMetadata(), StorageSimulation.FAIL_ANNOTATION)));
      if (failure.isPresent()) {
        // One event per claim and message, as a real provisioner's would be aggregated.
        if (!failure.get().equals(lastFailure.put(meta.getUid(), failure.get()))) {
          events.warning(
              claim,
              StorageSimulation.FAILED_REASON,
              "failed to provision volume with StorageClass \""
                  + storageClass.getMetadata().getName()
                  + "\": "
                  + failure.get()
                  + " (injected by "
                  + StorageSimulation.FAIL_ANNOTATION
                  + ")");
        }
        return;
      }
      lastFailure.remove(meta.getUid());
      String name = "pvc-" + meta.getUid();
      if (client.persistentVolumes().withName(name).get() != null) {
        return; // made already; the binder binds it
      }
      client.resource(volume(name, claim, storageClass, node)).create();
      events.normal(
          claim,
          "ProvisioningSucceeded",
          "Successfully provisioned volume " + name + " (simulated: no data is stored)");
    } catch (KubernetesClientException e) {
      // 409: made meanwhile by another JVM attached to the same kept control plane. Anything else
      // is reported on the claim, as a real provisioner does, and tried again at the next resync.
      String message = "failed to provision volume: " + e.getMessage();
      if (e.getCode() != 409 && !message.equals(lastFailure.put(meta.getUid(), message))) {
        events.warning(claim, StorageSimulation.FAILED_REASON, message);
      }
    }
  }

  private PersistentVolume volume(
      String name, PersistentVolumeClaim claim, StorageClass storageClass, String node) {
    Quantity size = claim.getSpec().getResources().getRequests().get("storage");
    PersistentVolumeBuilder volume =
        new PersistentVolumeBuilder()
            .withNewMetadata()
            .withName(name)
            .addToAnnotations(PROVISIONED_BY_ANNOTATION, StorageSimulation.PROVISIONER)
            .endMetadata()
            .withNewSpec()
            .withCapacity(Map.of("storage", size))
            .withAccessModes(claim.getSpec().getAccessModes())
            .withVolumeMode(claim.getSpec().getVolumeMode())
            .withStorageClassName(storageClass.getMetadata().getName())
            .withPersistentVolumeReclaimPolicy(
                Optional.ofNullable(storageClass.getReclaimPolicy()).orElse("Delete"))
            .withMountOptions(storageClass.getMountOptions())
            .withNewClaimRef()
            .withApiVersion("v1")
            .withKind("PersistentVolumeClaim")
            .withNamespace(claim.getMetadata().getNamespace())
            .withName(claim.getMetadata().getName())
            .withUid(claim.getMetadata().getUid())
            .endClaimRef()
            .withNewHostPath()
            .withPath(volumeRoot.resolve(name).toString())
            .endHostPath()
            .endSpec();
    if (node != null) {
      // Where the scheduler put the first consumer: later pods of the claim follow it there.
      volume
          .editSpec()
          .withNewNodeAffinity()
          .withNewRequired()
          .addNewNodeSelectorTerm()
          .addNewMatchExpression()
          .withKey("kubernetes.io/hostname")
          .withOperator("In")
          .withValues(node)
          .endMatchExpression()
          .endNodeSelectorTerm()
          .endRequired()
          .endNodeAffinity()
          .endSpec();
    }
    return volume.build();
  }

  /** A volume of ours whose claim is gone, under policy {@code Delete}: deleted, as upstream's. */
  private void reclaim(PersistentVolume volume) {
    if (!StorageSimulation.PROVISIONER.equals(
            annotation(volume.getMetadata(), PROVISIONED_BY_ANNOTATION))
        || !"Delete".equals(volume.getSpec().getPersistentVolumeReclaimPolicy())
        || volume.getStatus() == null
        || !"Released".equals(volume.getStatus().getPhase())
        || volume.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    try {
      client.resource(volume).delete();
    } catch (KubernetesClientException e) {
      // Deleted meanwhile, or tried again at the next resync.
    }
  }

  private static String annotation(ObjectMeta meta, String key) {
    return meta.getAnnotations() == null ? null : meta.getAnnotations().get(key);
  }

  @Override
  public void close() {
    if (claims != null) {
      claims.close();
    }
    if (volumes != null) {
      volumes.close();
    }
    client.close();
  }
}
