package io.github.kubeharness.launch;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.backend.HarnessControlPlane;
import io.github.kubeharness.internal.webhooks.WebhookSet;
import io.github.kubeharness.webhooks.WebhookHandlers;
import io.github.kubeharness.webhooks.Webhooks;
import java.util.List;

/**
 * Serves a project's webhooks from plain Java, as envtest serves them (a {@code @ControllerTest}
 * class gets them from its {@code webhooks} and {@code webhookHandlers} instead).
 *
 * <pre>{@code
 * try (Webhooks webhooks =
 *     WebhookServers.serve(controlPlane, List.of("config/webhook"), new MyHandlers())) {
 *   webhooks.installCrds(List.of("config/crd/bases"), List.of());  // conversion webhooks rewritten
 *   try (AutoCloseable installed = webhooks.install("my-namespace")) {
 *     ...
 *   }
 * }
 * }</pre>
 */
public final class WebhookServers {

  private static final String WHERE = "WebhookServers.serve";

  private WebhookServers() {}

  /**
   * Starts a webhook server of its own for {@code handlers} and reads the webhook manifests ({@code
   * Mutating}/{@code ValidatingWebhookConfiguration}s, CRD conversion patches). Every path the
   * manifests name must have a handler. Closing the result stops the server.
   *
   * @param controlPlane one made by {@link ControlPlanes} (or injected by the JUnit extension)
   */
  public static Webhooks serve(
      ControlPlane controlPlane, List<String> manifests, WebhookHandlers handlers) {
    return WebhookSet.serve(madeByKubeHarness(controlPlane), manifests, handlers, WHERE);
  }

  /**
   * The one place a control plane enters from a user's code and must be kube-harness's own (its
   * CRDs are installed with conversion rewritten, which the public interface does not offer): a
   * class of the user's own implementing {@link ControlPlane} is refused here, before anything is
   * served. A check of the caller's argument, not a probe of what a control plane can do.
   */
  private static HarnessControlPlane madeByKubeHarness(ControlPlane controlPlane) {
    if (controlPlane instanceof HarnessControlPlane ours) {
      return ours;
    }
    throw new KubeHarnessException(
        WHERE
            + " needs a control plane made by kube-harness (ControlPlanes.create); "
            + controlPlane.getClass().getName()
            + " is not one.");
  }
}
