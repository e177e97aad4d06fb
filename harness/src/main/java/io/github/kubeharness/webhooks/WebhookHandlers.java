package io.github.kubeharness.webhooks;

/**
 * A project's webhook handlers, by the paths its webhook manifests name ({@code
 * clientConfig.service.path}, e.g. kubebuilder's {@code /mutate-webapp-example-com-v1-guestbook}).
 * Named in {@code @ControllerTest(webhookHandlers = ...)}; needs a public no-argument constructor.
 *
 * <pre>{@code
 * public class GuestbookWebhooks implements WebhookHandlers {
 *   public void register(WebhookRoutes routes) {
 *     routes.admission("/mutate-webapp-example-com-v1-guestbook",
 *         new AdmissionController<>(new GuestbookDefaulter())::handle);
 *     routes.conversion("/convert", conversionController::handle);
 *   }
 * }
 * }</pre>
 *
 * <p>Handlers that are also {@link AutoCloseable} (a webhook server of their own, see {@link
 * WebhookRoutes#external}) are closed after the class.
 */
@FunctionalInterface
public interface WebhookHandlers {
  void register(WebhookRoutes routes) throws Exception;
}
