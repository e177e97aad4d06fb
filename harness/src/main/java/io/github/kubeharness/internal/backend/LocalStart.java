package io.github.kubeharness.internal.backend;

import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.internal.provision.Binaries;
import io.github.kubeharness.internal.provision.BinaryResolver;

/**
 * One way to start the local backend's processes, chosen when a {@link LocalControlPlane} is made:
 * {@link FreshStart} (an etcd of its own), {@link KeptStart} (attach to, or keep for, other JVMs:
 * {@code kubeharness.reuse}), {@link BesideStart} (an apiserver on another cluster's etcd). What
 * the profile adds on top ({@link LocalAddOn}) comes with the inputs, whichever way it starts.
 */
interface LocalStart {

  /** What one start works with. */
  record Inputs(
      LocalPlane plane,
      BackendOptions.Local local,
      BinaryResolver resolver,
      Binaries binaries,
      LocalAddOn addOn) {}

  /**
   * Starts (or attaches), registering each started part with the plane ({@link LocalPlane#started})
   * and connecting it; returns what this JVM acts on afterwards.
   */
  LocalProcesses start(Inputs in);

  /**
   * Begins, on a thread of its own, what {@link #start} will need first and can make before the
   * binaries are known; called at the top of each start. Nothing by default.
   */
  default void prepare() {}
}
