/**
 * Steering the {@code simulated} profile's workloads: pods that turn unready, crash or fail, and
 * KWOK's fake nodes that come, go or are cordoned. Start at {@link
 * io.github.kubeharness.simulation.Simulation}, which a {@code @ControllerTest} injects.
 */
package io.github.kubeharness.simulation;
