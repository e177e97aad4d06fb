package io.github.kubeharness.settings;

import io.github.kubeharness.ControlPlaneOptions;

/**
 * The one reader of the attributes that {@code @ControllerTest} and the Spring and Quarkus
 * annotations all declare ({@code backend}, {@code profile}, {@code kubernetesVersion}), each read
 * as its setting reads it. A blank attribute says nothing: the setting decides.
 */
public final class AnnotationSettings {

  private AnnotationSettings() {}

  /**
   * {@code options} told what the attributes say; {@code where} names the annotation in errors
   * ({@code @ControllerTest on MyTest}), with the attribute.
   */
  public static ControlPlaneOptions.Builder apply(
      ControlPlaneOptions.Builder options,
      String backend,
      String profile,
      String kubernetesVersion,
      String where) {
    if (!backend.isBlank()) {
      options.withBackend(HarnessSettings.BACKEND.parse(backend, where + " (backend)"));
    }
    if (!profile.isBlank()) {
      options.withProfile(HarnessSettings.PROFILE.parse(profile, where + " (profile)"));
    }
    if (!kubernetesVersion.isBlank()) {
      options.withKubernetesVersion(
          HarnessSettings.KUBERNETES_VERSION.parse(
              kubernetesVersion, where + " (kubernetesVersion)"));
    }
    return options;
  }
}
