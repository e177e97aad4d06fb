package io.github.kubeharness.sample.guestbook;

import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;

/**
 * Every {@link GuestbookBehaviour} test against a real API server, the operator running in-process
 * as cluster admin. The {@code standard} profile adds the garbage collector, which deletion needs.
 */
@ControllerTest(
    crdClasses = Guestbook.class,
    reconcilers = GuestbookReconciler.class,
    profile = "standard")
class GuestbookIT extends GuestbookBehaviour {}
