package io.github.kubeharness.internal.manifest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.KubeHarnessException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Applies manifests the way {@code kubectl apply --server-side} would: CRDs first, awaited until
 * served, then everything else in file order. Used by {@code kube-harness up --install}.
 */
public final class ManifestApplier {

  private ManifestApplier() {}

  /** Applies every document of the given files, directories or {@code classpath:} resources. */
  public static void apply(
      KubernetesClient admin, List<String> entries, Consumer<String> progress) {
    List<ManifestFiles.Document> documents = ManifestFiles.read(entries, "--install");
    List<ManifestFiles.Document> crds =
        documents.stream().filter(d -> d.kind().equals("CustomResourceDefinition")).toList();
    if (!crds.isEmpty()) {
      new CrdInstaller(admin).install(crds);
      progress.accept("installed " + crds.size() + " CRD(s)");
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
  }
}
