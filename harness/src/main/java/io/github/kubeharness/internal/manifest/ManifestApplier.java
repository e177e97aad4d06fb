package io.github.kubeharness.internal.manifest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.KubeHarnessException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Applies manifests the way {@code kubectl apply --server-side} would: CRDs first, awaited until
 * served, then everything else in file order.
 */
public final class ManifestApplier {

  /** What an apply did: objects applied (CRDs included), and CRDs that were new or changed. */
  public record Applied(int objects, int changedCrds) {}

  private ManifestApplier() {}

  /** Applies every document of the given files, directories or {@code classpath:} resources. */
  public static Applied apply(
      KubernetesClient admin,
      CrdInstaller crdInstaller,
      List<String> entries,
      Consumer<String> progress) {
    List<ManifestFiles.Document> documents = ManifestFiles.read(entries, "manifests");
    List<ManifestFiles.Document> crds =
        documents.stream().filter(d -> d.kind().equals("CustomResourceDefinition")).toList();
    int changedCrds = crds.isEmpty() ? 0 : crdInstaller.install(crds);
    if (!crds.isEmpty()) {
      progress.accept("installed " + crds.size() + " CRD(s), " + changedCrds + " new or changed");
    }
    int applied = 0;
    for (ManifestFiles.Document document : documents) {
      if (document.kind().equals("CustomResourceDefinition")) {
        continue;
      }
      GenericKubernetesResource resource =
          Serialization.jsonMapper().convertValue(document.node(), GenericKubernetesResource.class);
      try {
        admin.resource(resource).forceConflicts().serverSideApply();
        applied++;
      } catch (RuntimeException e) {
        throw new KubeHarnessException(
            "The API server rejected "
                + document.kind()
                + " "
                + resource.getMetadata().getName()
                + " from "
                + document.source()
                + ": "
                + e.getMessage(),
            e);
      }
    }
    if (applied > 0) {
      progress.accept("applied " + applied + " object(s)");
    }
    return new Applied(crds.size() + applied, changedCrds);
  }
}
