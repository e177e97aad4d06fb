package io.github.kubeharness.sample.guestbook;

import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;

/**
 * {@link GuestbookWebhooksIT} with the operator running as its own ServiceAccount ({@code
 * config/rbac}): its reconciling and status writes pass the webhooks (which see only spec updates
 * and creates) with exactly the permissions it is deployed with.
 */
@ControllerTest(
    crdClasses = Guestbook.class,
    reconcilers = GuestbookReconciler.class,
    rbac = "config/rbac",
    webhooks = "config/webhook",
    webhookHandlers = GuestbookWebhooksIT.Handlers.class)
class GuestbookWebhooksUnderOwnRbacIT extends GuestbookWebhooksIT {}
