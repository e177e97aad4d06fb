package io.github.kubeharness.spring;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.integration.AnnotationOptions;
import io.github.kubeharness.integration.SharedControlPlanes;
import java.util.List;

/**
 * What one {@link EnableKubeHarness} asks for, as a value: Spring caches a context per distinct
 * request (it is part of the context's key), and {@link SharedControlPlanes} starts one control
 * plane per distinct {@link #options()} key.
 */
record ClusterRequest(
    String backend,
    String profile,
    String kubernetesVersion,
    List<String> crds,
    List<Class<?>> crdClasses,
    List<String> manifests,
    String serviceAccount) {

  static ClusterRequest of(EnableKubeHarness annotation) {
    return new ClusterRequest(
        annotation.backend(),
        annotation.profile(),
        annotation.kubernetesVersion(),
        List.of(annotation.crds()),
        List.of(annotation.crdClasses()),
        List.of(annotation.manifests()),
        annotation.serviceAccount());
  }

  /** The control plane's options: the attributes given, the settings for the rest. */
  ControlPlaneOptions options(String where) {
    return AnnotationOptions.of(backend, profile, kubernetesVersion, where);
  }

  /** The ServiceAccount's namespace and name; a clear error when it is not {@code ns/name}. */
  String[] serviceAccountParts(String where) {
    return AnnotationOptions.serviceAccount(serviceAccount, where);
  }
}
