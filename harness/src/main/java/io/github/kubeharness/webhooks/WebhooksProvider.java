package io.github.kubeharness.webhooks;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.KubeHarnessException;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The seam between this package and the webhook server behind it, as {@link
 * io.github.kubeharness.BackendProvider} is for backends: found through {@link ServiceLoader}, so
 * the public API depends on none of the internal classes. Implemented once, by kube-harness.
 */
public interface WebhooksProvider {

  /** See {@link Webhooks#serve}. */
  Webhooks serve(ControlPlane controlPlane, List<String> manifests, WebhookHandlers handlers);

  /** The provider registered in {@code META-INF/services}. */
  static WebhooksProvider find() {
    return ServiceLoader.load(WebhooksProvider.class, WebhooksProvider.class.getClassLoader())
        .findFirst()
        .orElseThrow(
            () ->
                new KubeHarnessException(
                    "No kube-harness webhook server found: META-INF/services/"
                        + WebhooksProvider.class.getName()
                        + " is missing from the classpath. A shaded or merged jar must keep"
                        + " service files (maven-shade-plugin: ServicesResourceTransformer)."));
  }
}
