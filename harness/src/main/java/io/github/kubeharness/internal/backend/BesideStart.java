package io.github.kubeharness.internal.backend;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.PortTaken;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A second cluster ({@code name}) on another control plane's etcd: an apiserver of its own (own CA,
 * own port, own controller manager where the profile runs one) whose keys live under a prefix of
 * its own, so that it sees nothing of the other's objects: a free slot of the etcd seed,
 * bootstrapped already, else {@code /registry-<name>}, bootstrapped by its first start. Costs one
 * apiserver boot, not an etcd.
 *
 * <p>Launched as soon as the first cluster's etcd is (it may still boot), then held before its own
 * readiness waits until the first cluster has started: on the etcd it launched on, else (the first
 * cluster started again, on new ports) launched anew on the etcd that is up.
 */
final class BesideStart implements LocalStart {

  /** The keyspace this cluster claimed on an etcd. */
  private record Claim(SharedEtcd on, Keyspace keyspace) {}

  private final EtcdForOthers first;
  private final String name;
  // Claimed once per etcd, kept over a retry on new ports and over a restart on the same etcd: a
  // failed try wrote only this cluster's start-up objects there.
  private Claim claim;

  BesideStart(EtcdForOthers first, String name) {
    this.first = first;
    this.name = name;
  }

  @Override
  public LocalProcesses start(Inputs in) {
    LocalPlane plane = in.plane();
    long deadline = Waits.deadline(plane.options().startTimeout());
    SharedEtcd shared;
    try {
      shared = first.awaitLaunched(deadline, firstOf(name));
    } catch (RuntimeException e) {
      throw failed("its etcd did not come up: " + e.getMessage(), e);
    }
    for (int attempt = 1; ; ) {
      if (claim == null || claim.on() != shared) {
        claim = new Claim(shared, keyspaceOn(shared, plane.options()));
      }
      StartAttempt start =
          new StartAttempt(in, plane.newRunDirectory(RunDirectory.defaultRoot()).path(), false);
      // The same etcd, the same client certificate (etcd trusts one CA of its own), a key prefix
      // of this cluster's own: /registry stays the first cluster's.
      List<String> flags = new ArrayList<>(plane.options().extraApiServerFlags());
      flags.add("--etcd-prefix=" + claim.keyspace().prefix());
      SharedEtcd launchedOn = shared;
      AtomicReference<SharedEtcd> up = new AtomicReference<>();
      Optional<LocalProcesses> started;
      try {
        started =
            start.launch(
                launchedOn,
                claim.keyspace(),
                flags,
                until -> {
                  up.set(awaitFirst(until));
                  return up.get() == launchedOn;
                });
      } catch (PortTaken e) {
        plane.stopStarted(e);
        if (attempt++ < FreshStart.PORT_CLASH_ATTEMPTS) {
          continue;
        }
        throw failed(e.getMessage(), e);
      } catch (RuntimeException e) {
        plane.stopStarted(e);
        throw failed(e.getMessage(), e);
      }
      if (started.isPresent()) {
        return started.get();
      }
      // The first cluster started on another etcd than the one this try launched on. Not a
      // failed try: it does not count against the port clashes'.
      plane.stopStarted(new KubeHarnessException("the first cluster started on a new etcd"));
      shared = up.get();
    }
  }

  /** Before this cluster's readiness waits: the etcd the first cluster started on. */
  private SharedEtcd awaitFirst(long deadline) {
    try {
      return first.awaitStarted(deadline, firstOf(name));
    } catch (RuntimeException e) {
      throw new KubeHarnessException(
          "the control plane whose etcd it shares did not start: " + e.getMessage(), e);
    }
  }

  private KubeHarnessException failed(String why, RuntimeException e) {
    return new KubeHarnessException(
        "Cluster '" + name + "' (an apiserver on the shared etcd) failed to start: " + why, e);
  }

  /** What a cluster beside another waits for, named in its timeout. */
  private static String firstOf(String name) {
    return "the control plane whose etcd cluster '" + name + "' shares";
  }

  // A free slot of the etcd seed on `shared`, else a prefix this cluster's apiserver bootstraps.
  private Keyspace keyspaceOn(SharedEtcd shared, ControlPlaneOptions options) {
    return shared
        .slots()
        .claim()
        .map(slot -> new Keyspace(slot, true))
        .orElseGet(
            () -> {
              options
                  .progress()
                  .accept(
                      "cluster '"
                          + name
                          + "': no bootstrapped keyspace of the etcd seed is free (it has "
                          + EtcdSeed.SLOTS
                          + " for the clusters beside the first), so its apiserver bootstraps"
                          + " /registry-"
                          + name
                          + " itself, which takes it a second or two longer");
              return new Keyspace("/registry-" + name, false);
            });
  }
}
