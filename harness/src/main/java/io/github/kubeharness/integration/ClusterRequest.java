package io.github.kubeharness.integration;

import java.util.List;

/**
 * What one framework annotation ({@code @EnableKubeHarness}, {@code @WithKubeHarness}, or your own)
 * asks of kube-harness, as a value: frameworks that cache an application per configuration
 * (Spring's context cache) can key it on this. {@link PreparedCluster#prepare} carries it out.
 *
 * @param backend {@code local}, {@code container}, ...; blank: the setting
 * @param profile {@code minimal}, {@code standard}, {@code simulated}; blank: the setting
 * @param kubernetesVersion blank: the setting
 * @param crds CRD files, directories or {@code classpath:} resources to install
 * @param crdClasses custom resource classes whose CRDs are generated and installed
 * @param manifests applied after the CRDs, before the application starts (its RBAC, typically)
 * @param serviceAccount {@code namespace/name} of a ServiceAccount the application acts as; blank:
 *     cluster-admin
 */
public record ClusterRequest(
    String backend,
    String profile,
    String kubernetesVersion,
    List<String> crds,
    List<Class<?>> crdClasses,
    List<String> manifests,
    String serviceAccount) {

  public ClusterRequest {
    crds = List.copyOf(crds);
    crdClasses = List.copyOf(crdClasses);
    manifests = List.copyOf(manifests);
  }

  /** This request with {@code crds} instead of its own. */
  public ClusterRequest withCrds(List<String> crds) {
    return new ClusterRequest(
        backend, profile, kubernetesVersion, crds, crdClasses, manifests, serviceAccount);
  }
}
