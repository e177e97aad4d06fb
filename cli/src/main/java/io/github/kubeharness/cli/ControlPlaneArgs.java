package io.github.kubeharness.cli;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Settings;
import io.github.kubeharness.Versions;
import io.github.kubeharness.internal.provision.KubernetesReleases;

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
    String minor = settings.given(Settings.KUBERNETES_VERSION);
    ControlPlaneOptions.Builder builder = settings.builder(origin);
    if (minor != null) {
      ControlPlaneOptions.Builder withoutVersion =
          settings.builder(origin).withKubernetesVersion(Versions.KUBERNETES);
      builder.withKubernetesVersion(new KubernetesReleases(withoutVersion.build()).resolve(minor));
    }
    return builder.build();
  }
}
