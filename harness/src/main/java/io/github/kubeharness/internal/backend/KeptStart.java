package io.github.kubeharness.internal.backend;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.reuse.KeptControlPlane;
import java.util.Optional;

/**
 * {@code kubeharness.reuse}: attach to the control plane an earlier JVM kept, or start one ({@link
 * FreshStart}, its processes in sessions of their own) and hand it to a keeper; under the kept
 * directory's lock, so JVMs starting together share one.
 */
final class KeptStart implements LocalStart {

  private final FreshStart fresh;

  KeptStart(FreshStart fresh) {
    this.fresh = fresh;
  }

  @Override
  public void prepare() {
    fresh.prepare();
  }

  @Override
  public LocalProcesses start(Inputs in) {
    LocalPlane plane = in.plane();
    ControlPlaneOptions options = plane.options();
    KeptControlPlane kept = KeptControlPlane.of(options, in.local(), in.binaries());
    try (AutoCloseable lock = kept.lock()) {
      // Registered before looking: a keeper about to stop for idleness sees this JVM and stays.
      Runnable detach = kept.attach();
      Optional<KeptControlPlane.State> state = kept.attachable();
      if (state.isPresent()) {
        return attach(in, state.get(), detach);
      }
      detach.run();
      LocalProcesses started = fresh.start(in, kept.directory(), true);
      kept.keep(
          plane.run(),
          plane.apiServerUrl(),
          plane.kubeconfigFile(),
          started.apiServer().pid(),
          started.auditLog(),
          plane.ca());
      // The keeper owns the processes now.
      plane.handedOver(kept.attach());
      options
          .progress()
          .accept(
              "keeping this control plane for the next JVM (kubeharness.reuse); it stops after "
                  + in.local().reuseIdleTimeout().toMinutes()
                  + " min without one, or with kube-harness down");
      return started.handedOver();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new KubeHarnessException("Cannot reuse a kept control plane: " + e, e);
    }
  }

  private static LocalProcesses attach(Inputs in, KeptControlPlane.State state, Runnable detach) {
    LocalPlane plane = in.plane();
    plane.attached(
        RunDirectory.adopt(state.run()),
        state.apiServerUrl(),
        state.kubeconfig(),
        state.ca(),
        detach);
    // In this JVM, also when attached to a kept control plane (whose keeper runs no Java): as a
    // fresh start would have it (a test may have deleted what it set up).
    in.addOn().attached(plane);
    plane
        .options()
        .progress()
        .accept("attached to the kept control plane at " + state.apiServerUrl());
    return LocalProcesses.attached(state.auditLog());
  }
}
