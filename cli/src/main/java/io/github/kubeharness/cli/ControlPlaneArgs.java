package io.github.kubeharness.cli;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Versions;
import io.github.kubeharness.internal.provision.KubernetesReleases;
import io.github.kubeharness.settings.HarnessSettings;

/**
 * The options every control-plane command shares: which control plane, one option per setting that
 * names one ({@link SettingOptions}, added to each command by {@link KubeHarnessCli#run}).
 */
final class ControlPlaneArgs {
  final SettingOptions settings = new SettingOptions();

  /**
   * The options, resolved once; {@code origin} names the command in messages. A version given as a
   * minor (1.36) becomes its newest patch that can be had.
   */
  ControlPlaneOptions options(String origin) {
    String minor = settings.given(HarnessSettings.KUBERNETES_VERSION);
    ControlPlaneOptions.Builder builder = ControlPlaneOptions.builder().withOrigin(origin);
    if (minor != null) {
      ControlPlaneOptions withoutVersion =
          settings.resolve(
              ControlPlaneOptions.builder()
                  .withOrigin(origin)
                  .withKubernetesVersion(Versions.KUBERNETES));
      builder.withKubernetesVersion(new KubernetesReleases(withoutVersion).resolve(minor));
    }
    return settings.resolve(builder);
  }
}
