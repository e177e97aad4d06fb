package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.process.Waits;
import io.github.kubeharness.internal.provision.GoTools;
import io.github.kubeharness.simulation.Simulation;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code simulated} profile's add-on: kube-scheduler and KWOK (launched together with the
 * controller manager, which runs the workload controllers in this profile), the fake nodes made
 * Ready, the default StorageClass, and this JVM's volume provisioner. Ready means the scheduler and
 * KWOK healthy and every fake node Ready.
 */
final class SimulatedComponents implements LocalAddOn {

  private final ControlPlaneOptions options;
  private final BackendOptions.Local local;
  // KWOK's binary, resolved for each start (resolved()); null before.
  private final Path kwokBinary;

  private SimulatedComponents(
      ControlPlaneOptions options, BackendOptions.Local local, Path kwokBinary) {
    this.options = options;
    this.local = local;
    this.kwokBinary = kwokBinary;
  }

  /** The add-on of {@code options}' profile: this one where it runs KWOK, else none. */
  static LocalAddOn forProfile(ControlPlaneOptions options, BackendOptions.Local local) {
    return options.profile().runs(Profile.Component.KWOK)
        ? new SimulatedComponents(options, local, null)
        : LocalAddOn.NONE;
  }

  @Override
  public LocalAddOn resolved() {
    return new SimulatedComponents(options, local, GoTools.kwok(options));
  }

  @Override
  public Launched launch(StartAttempt attempt, ApiServer apiServer) {
    LocalPlane plane = attempt.plane();
    Scheduler scheduler =
        attempt.component(
            new Scheduler(
                attempt.binaries().requireScheduler(),
                attempt.run(),
                plane.kubeconfigFor(apiServer.url(), "system:kube-scheduler", List.of())));
    scheduler.launch();
    // KWOK writes the status of nodes and pods, as kubelets do (with the rights of one for all).
    Kwok kwok =
        attempt.component(
            new Kwok(
                kwokBinary,
                attempt.run(),
                plane.kubeconfigFor(
                    apiServer.url(), "kube-harness-kwok", List.of("system:masters")),
                local.podStartDelay(),
                options.kubernetesVersion()));
    kwok.launch();
    return (client, deadline) ->
        CompletableFuture.runAsync(() -> awaitNodes(plane, scheduler, kwok, client, deadline))
            .thenRun(() -> installDefaultStorageClass(client));
  }

  /** Both healthy, then the fake nodes registered and made Ready. */
  private void awaitNodes(
      LocalPlane plane, Scheduler scheduler, Kwok kwok, KubernetesClient client, long deadline) {
    scheduler.awaitReady(Waits.remaining(deadline));
    kwok.awaitReady(Waits.remaining(deadline));
    Simulation simulation = new Simulation(plane.controlPlane(), client);
    for (int i = 1; i <= local.simulatedNodes(); i++) {
      simulation.addNode("simulated-node-" + i);
    }
  }

  /**
   * In this JVM, also when attached to a kept control plane (whose keeper runs no Java): each
   * attached JVM provisions, and they agree on each volume's name.
   */
  @Override
  public void started(LocalPlane plane) {
    plane.started(
        SimulatedProvisioner.start(plane.newClient(), plane.run().path().resolve("volumes")));
  }

  /** This JVM's setting, as a fresh start would have it (a test may have deleted it). */
  @Override
  public void attached(LocalPlane plane) {
    try (KubernetesClient client = plane.newClient()) {
      installDefaultStorageClass(client);
    }
  }

  private void installDefaultStorageClass(KubernetesClient client) {
    local.defaultStorageClass().ifPresent(name -> DefaultStorageClass.install(client, name));
  }
}
