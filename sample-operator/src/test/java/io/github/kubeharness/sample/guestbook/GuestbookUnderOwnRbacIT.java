package io.github.kubeharness.sample.guestbook;

import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;

/**
 * Every {@link GuestbookBehaviour} test again, with the operator acting as the ServiceAccount that
 * {@code config/rbac} declares and binds ({@code controller-manager}), not as admin: a verb missing
 * from {@code config/rbac/role.yaml} fails here exactly as it would in a cluster, and the failure
 * report lists the denied request.
 */
@ControllerTest(
    crdClasses = Guestbook.class,
    reconcilers = GuestbookReconciler.class,
    profile = "simulated",
    rbac = "config/rbac")
class GuestbookUnderOwnRbacIT extends GuestbookBehaviour {}
