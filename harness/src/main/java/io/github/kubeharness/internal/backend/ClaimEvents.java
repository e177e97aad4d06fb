package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.simulation.StorageSimulation;
import java.time.Instant;
import java.util.UUID;

/**
 * The events the simulated provisioner leaves on a claim, shaped as an external provisioner's
 * ({@code kubectl describe pvc} and the failure report's event table show them).
 */
final class ClaimEvents {

  private final KubernetesClient client;

  ClaimEvents(KubernetesClient client) {
    this.client = client;
  }

  void normal(PersistentVolumeClaim claim, String reason, String message) {
    record(claim, "Normal", reason, message);
  }

  void warning(PersistentVolumeClaim claim, String reason, String message) {
    record(claim, "Warning", reason, message);
  }

  private void record(PersistentVolumeClaim claim, String type, String reason, String message) {
    String now = Instant.now().toString();
    String namespace = claim.getMetadata().getNamespace();
    try {
      client
          .v1()
          .events()
          .inNamespace(namespace)
          .resource(
              new EventBuilder()
                  .withNewMetadata()
                  .withName(
                      claim.getMetadata().getName()
                          + "."
                          + UUID.randomUUID().toString().substring(0, 8))
                  .withNamespace(namespace)
                  .endMetadata()
                  .withNewInvolvedObject()
                  .withApiVersion("v1")
                  .withKind("PersistentVolumeClaim")
                  .withNamespace(namespace)
                  .withName(claim.getMetadata().getName())
                  .withUid(claim.getMetadata().getUid())
                  .withResourceVersion(claim.getMetadata().getResourceVersion())
                  .endInvolvedObject()
                  .withType(type)
                  .withReason(reason)
                  .withMessage(message)
                  .withNewSource()
                  .withComponent(StorageSimulation.PROVISIONER)
                  .endSource()
                  .withReportingComponent(StorageSimulation.PROVISIONER)
                  .withReportingInstance("kube-harness")
                  .withFirstTimestamp(now)
                  .withLastTimestamp(now)
                  .withCount(1)
                  .build())
          .create();
    } catch (KubernetesClientException e) {
      // An event is best effort, as client-go's recorder's: its namespace may be being deleted.
    }
  }
}
