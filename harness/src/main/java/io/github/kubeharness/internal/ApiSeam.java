package io.github.kubeharness.internal;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.backend.Backends;
import io.github.kubeharness.internal.webhooks.WebhookSet;
import io.github.kubeharness.settings.SettingsResolver;
import io.github.kubeharness.webhooks.WebhookHandlers;
import io.github.kubeharness.webhooks.Webhooks;
import java.util.List;

/**
 * The one door from the public API into the internals. Public because the API's static factories
 * ({@link ControlPlane#create}, {@link Webhooks#serve}) are in other packages; {@code
 * ArchitectureTest} lets the API packages reach this class and nothing else under {@code internal},
 * and reads the calls through it as the only edge allowed against the layering.
 *
 * <p>A static call rather than a {@link java.util.ServiceLoader} lookup: the implementation ships
 * in the same jar, so a lookup only hid this dependency (and broke shaded jars that dropped {@code
 * META-INF/services}) without removing it.
 */
public final class ApiSeam {

  private ApiSeam() {}

  /**
   * {@link ControlPlane#create}: a new, not yet started, control plane for {@code options}, what
   * they were not told taken from the settings.
   */
  public static ControlPlane controlPlane(ControlPlaneOptions options) {
    return Backends.newControlPlane(SettingsResolver.resolve(options));
  }

  /** {@link ControlPlane#local}: {@link #controlPlane} on the local backend. */
  public static ControlPlane localControlPlane(ControlPlaneOptions options) {
    return Backends.newControlPlane(SettingsResolver.local(options));
  }

  /** {@link Webhooks#serve}: a webhook server of its own for {@code handlers}. */
  public static Webhooks webhooks(
      ControlPlane controlPlane, List<String> manifests, WebhookHandlers handlers) {
    return WebhookSet.serve(controlPlane, manifests, handlers);
  }
}
