package io.github.kubeharness.integration;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;

/**
 * Control plane options from an integration annotation's string attributes, as
 * {@code @ControllerTest} reads its own: each blank one takes the kube-harness setting (system
 * property, environment variable, default). The audit log is on: it feeds the reports' API
 * requests.
 */
public final class AnnotationOptions {

  private AnnotationOptions() {}

  /**
   * The options for {@code backend}, {@code profile} and {@code kubernetesVersion} (blank: the
   * setting); {@code where} names the annotation in errors ({@code @EnableKubeHarness on MyIT}).
   */
  public static ControlPlaneOptions of(
      String backend, String profile, String kubernetesVersion, String where) {
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
    return options.withAuditLog(true).build();
  }

  /**
   * {@code namespace/name} of a ServiceAccount split in two; a clear error naming {@code where}
   * when it is not that.
   */
  public static String[] serviceAccount(String serviceAccount, String where) {
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
