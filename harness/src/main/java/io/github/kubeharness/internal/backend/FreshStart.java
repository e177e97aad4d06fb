package io.github.kubeharness.internal.backend;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.controlplane.EtcdTls;
import io.github.kubeharness.internal.process.PortTaken;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.Waits;
import io.github.kubeharness.internal.provision.BinaryResolver;
import io.github.kubeharness.internal.provision.Component;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A start on an etcd of its own, from the etcd seed when there is one ({@link EtcdSeed}); the etcd
 * is handed to the clusters that start beside this one ({@link EtcdForOthers}) as soon as it is
 * launched. Tried again on new ports when another process took one meanwhile ({@link PortTaken}),
 * and without the seed when starting from it failed.
 */
final class FreshStart implements LocalStart {

  /** How many tries a start gets when its ports are taken by other processes meanwhile. */
  static final int PORT_CLASH_ATTEMPTS = 3;

  private final EtcdForOthers etcdForOthers;
  // etcd's certificates for the next try, begun by prepare(); null when none was begun or taken.
  private CompletableFuture<EtcdTls> earlyTls;

  FreshStart(EtcdForOthers etcdForOthers) {
    this.etcdForOthers = etcdForOthers;
  }

  /**
   * Makes etcd's certificates on a thread of its own while the binaries, the etcd seed and the run
   * directory are looked up: they are what etcd's launch waits for, and in a fresh JVM their EC
   * keys and signatures are the slowest part of the start before it (issue 44's profile in
   * docs/developing.md).
   */
  @Override
  public void prepare() {
    if (earlyTls == null) {
      earlyTls =
          CompletableFuture.supplyAsync(
              EtcdTls::create,
              task -> {
                Thread thread = new Thread(task, "kube-harness-etcd-certificates");
                thread.setDaemon(true);
                thread.start();
              });
    }
  }

  // The certificates prepare() began, once; afresh for a later try or without prepare().
  private EtcdTls etcdTls() {
    CompletableFuture<EtcdTls> early = earlyTls;
    earlyTls = null;
    if (early == null) {
      return EtcdTls.create();
    }
    try {
      return early.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  @Override
  public LocalProcesses start(Inputs in) {
    return start(in, RunDirectory.defaultRoot(), false);
  }

  /**
   * Starts with its run directory under {@code runRoot}; {@code keptForOthers}: for a keeper to
   * hold ({@link KeptStart}).
   */
  LocalProcesses start(Inputs in, Path runRoot, boolean keptForOthers) {
    etcdForOthers.starting();
    LocalProcesses started;
    try {
      started = startWithRetries(in, runRoot, keptForOthers);
    } catch (RuntimeException e) {
      etcdForOthers.failed(e);
      throw e;
    }
    etcdForOthers.started(started.etcd());
    // Closed when this control plane stops: a cluster beside it starting later is refused.
    in.plane().started(etcdForOthers::ended);
    return started;
  }

  private LocalProcesses startWithRetries(Inputs in, Path runRoot, boolean keptForOthers) {
    LocalPlane plane = in.plane();
    ControlPlaneOptions options = plane.options();
    EtcdSeed seed = seedFor(options, in);
    for (int attempt = 1; ; attempt++) {
      StartAttempt start =
          new StartAttempt(in, plane.newRunDirectory(runRoot).path(), keptForOthers);
      RuntimeException failure;
      try {
        return onOwnEtcd(start, seed);
      } catch (PortTaken e) {
        plane.stopStarted(e);
        // Free ports are picked before the processes bind them: another process may take one in
        // between. Worth another start on new ports, a few times.
        if (attempt < PORT_CLASH_ATTEMPTS) {
          options
              .progress()
              .accept("a port was taken by another process meanwhile; starting again on new ports");
          continue;
        }
        failure = e;
      } catch (RuntimeException e) {
        plane.stopStarted(e);
        failure = e;
      }
      // The failed run directory (and the logs the message points to) stays until JVM exit.
      if (seed != null && !start.apiServerUp()) {
        options
            .progress()
            .accept(
                "starting from the etcd seed failed ("
                    + firstLine(failure)
                    + "); discarded it, starting empty");
        seed.discard();
        seed = null;
        continue;
      }
      throw explainCorruptCache(in, failure);
    }
  }

  private LocalProcesses onOwnEtcd(StartAttempt start, EtcdSeed seed) {
    // etcd's certificates are the only keys made before a process is launched: it must not
    // listen for a moment without them.
    EtcdTls etcdTls = etcdTls();
    Etcd etcd = start.component(new Etcd(start.binaries().etcd(), start.run(), seed, etcdTls));
    etcd.launch();
    SharedEtcd own = new SharedEtcd(etcd.clientUrl(), etcdTls, SeedSlots.of(seed));
    etcdForOthers.launched(own);
    return start
        .launch(
            own,
            new Keyspace("/registry", seed != null),
            start.plane().options().extraApiServerFlags(),
            deadline -> {
              etcd.awaitReady(Waits.remaining(deadline));
              return true;
            })
        .orElseThrow();
  }

  // No seed under extra apiserver flags: they may change what the apiserver writes at start (a
  // service range, disabled groups), and a seed made without them would not match.
  private static EtcdSeed seedFor(ControlPlaneOptions options, Inputs in) {
    if (!options.extraApiServerFlags().isEmpty()) {
      return null;
    }
    try {
      return EtcdSeed.forBinaries(
          in.binaries(), options.cacheDirectory(), options.startTimeout(), options.progress());
    } catch (RuntimeException e) {
      options.progress().accept(firstLine(e) + "; starting without a seed");
      return null;
    }
  }

  private static String firstLine(Exception e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
  }

  // A start that fails on binaries from the cache may fail because the cache is damaged: then
  // that is the error to show, with the failure attached.
  private static RuntimeException explainCorruptCache(Inputs in, RuntimeException failure) {
    if (!in.binaries().origin().contains("cache")) {
      return failure;
    }
    try {
      for (Component binary : BinaryResolver.needed(in.plane().options().profile(), false)) {
        in.resolver().cache().verify(binary);
      }
      return failure;
    } catch (KubeHarnessException corrupt) {
      corrupt.addSuppressed(failure);
      return corrupt;
    }
  }
}
