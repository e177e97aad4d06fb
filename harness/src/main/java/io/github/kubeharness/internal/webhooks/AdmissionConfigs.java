package io.github.kubeharness.internal.webhooks;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.KubeHarnessException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The admission configurations on the cluster: created labelled with the JVM that owns them, and
 * those of JVMs that are gone deleted. One job of {@link WebhookSet}, apart because it talks to the
 * API server where the set mounts handlers and renders manifests.
 */
final class AdmissionConfigs {

  static final String OWNER_PID = "kube-harness.io/owner-pid";
  static final String FOR_NAMESPACE = "kube-harness.io/webhooks-for";

  private AdmissionConfigs() {}

  /** The labels a configuration for {@code namespace} carries: its namespace and this JVM. */
  static Map<String, String> labels(String namespace) {
    return Map.of(
        FOR_NAMESPACE, namespace, OWNER_PID, Long.toString(ProcessHandle.current().pid()));
  }

  /** Creates {@code config}; a configuration the API server refuses names its source. */
  static HasMetadata create(KubernetesClient admin, WebhookManifests.Rendered config) {
    Class<? extends HasMetadata> type =
        config.kind().equals("MutatingWebhookConfiguration")
            ? MutatingWebhookConfiguration.class
            : ValidatingWebhookConfiguration.class;
    HasMetadata object;
    try {
      object = Serialization.jsonMapper().treeToValue(config.node(), type);
    } catch (Exception e) {
      throw new KubeHarnessException(
          config.source() + " is not a valid " + config.kind() + ": " + e.getMessage(), e);
    }
    try {
      return admin.resource(object).create();
    } catch (RuntimeException e) {
      throw new KubeHarnessException(
          "The API server rejected the "
              + config.kind()
              + " from "
              + config.source()
              + " (applied as "
              + config.name()
              + "): "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Deletes configurations of test JVMs that are gone (a kept control plane outlives them): one
   * left with {@code failurePolicy: Fail} would refuse cluster-scoped objects it matches.
   */
  static void sweepOrphans(KubernetesClient admin) {
    List<HasMetadata> stale = new ArrayList<>();
    stale.addAll(
        admin
            .admissionRegistration()
            .v1()
            .mutatingWebhookConfigurations()
            .withLabel(OWNER_PID)
            .list()
            .getItems());
    stale.addAll(
        admin
            .admissionRegistration()
            .v1()
            .validatingWebhookConfigurations()
            .withLabel(OWNER_PID)
            .list()
            .getItems());
    for (HasMetadata config : stale) {
      String owner = config.getMetadata().getLabels().get(OWNER_PID);
      if (owner.matches("\\d+") && ProcessHandle.of(Long.parseLong(owner)).isEmpty()) {
        admin.resource(config).delete();
      }
    }
  }
}
