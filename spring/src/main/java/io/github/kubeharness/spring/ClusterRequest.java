package io.github.kubeharness.spring;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
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
    ControlPlaneOptions.Builder options = ControlPlaneOptions.builder();
    if (!backend.isBlank()) {
      options.withBackend(Backend.parse(backend, where + " (backend)"));
    }
    if (!profile.isBlank()) {
      options.withProfile(Profile.parse(profile, where + " (profile)"));
    }
    if (!kubernetesVersion.isBlank()) {
      options.withKubernetesVersion(kubernetesVersion);
    }
    // The audit log feeds the "API requests" part of failure reports.
    return options.withAuditLog(true).build();
  }

  /** The ServiceAccount's namespace and name; a clear error when it is not {@code ns/name}. */
  String[] serviceAccountParts(String where) {
    String[] parts = serviceAccount.split("/");
    if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
      throw new KubeHarnessException(
          where
              + " serviceAccount '"
              + serviceAccount
              + "' is not namespace/name. Write it as, e.g., serviceAccount ="
              + " \"my-operator-system/my-operator\" (a ServiceAccount that manifests creates).");
    }
    return parts;
  }
}
