package io.github.kubeharness.integration;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.settings.AnnotationSettings;
import io.github.kubeharness.settings.SettingsResolver;

/**
 * Control plane options from an integration annotation's string attributes, read by {@link
 * AnnotationSettings} as {@code @ControllerTest}'s own: each blank one takes the kube-harness
 * setting (system property, environment variable, default). The audit log is on: it feeds the
 * reports' API requests.
 */
public final class AnnotationOptions {

  private AnnotationOptions() {}

  /**
   * The options for {@code backend}, {@code profile} and {@code kubernetesVersion} (blank: the
   * setting); {@code where} names the annotation in errors ({@code @EnableKubeHarness on MyIT}).
   */
  public static ControlPlaneOptions of(
      String backend, String profile, String kubernetesVersion, String where) {
    return SettingsResolver.resolve(
        AnnotationSettings.apply(
                ControlPlaneOptions.builder(), backend, profile, kubernetesVersion, where)
            .withAuditLog(true)
            .build());
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
