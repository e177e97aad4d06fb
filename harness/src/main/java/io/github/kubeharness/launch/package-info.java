/**
 * The front door: what makes a control plane ({@link ControlPlanes}) or serves webhooks ({@link
 * WebhookServers}) from plain Java, outside a {@code @ControllerTest}.
 *
 * <p>A package of its own, above {@code internal}, because making either means choosing and
 * building an internal implementation. While these factories were static methods of the API types
 * themselves ({@code ControlPlane.create}, {@code Webhooks.serve}), the API depended on the
 * internals that implement it, and the two packages formed a cycle. Here the arrows run one way:
 * {@code launch} → {@code internal} → the API types; nothing under {@code internal} names this
 * package ({@code ArchitectureTest}).
 *
 * <p>The names follow the JDK's {@code Files}/{@code Collections}: {@code ControlPlanes} makes
 * {@link io.github.kubeharness.ControlPlane}s; {@code WebhookServers.serve} starts the webhook
 * server behind a {@link io.github.kubeharness.webhooks.Webhooks}. "launch" because everything here
 * starts something the caller then owns and closes.
 */
package io.github.kubeharness.launch;
