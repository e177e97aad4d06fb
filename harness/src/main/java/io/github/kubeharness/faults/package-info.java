/**
 * Faults injected into the API traffic of the controllers under test, through a proxy in front of
 * kube-apiserver on the {@code local} backend: start at {@link
 * io.github.kubeharness.faults.Faults}, which a {@code @ControllerTest} injects, and {@link
 * io.github.kubeharness.faults.FaultRule} for the requests to answer or delay.
 */
package io.github.kubeharness.faults;
