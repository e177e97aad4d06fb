package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.client.ClientWarmUp;
import io.github.kubeharness.internal.controlplane.ApiServer;
import io.github.kubeharness.internal.controlplane.ControllerManager;
import io.github.kubeharness.internal.controlplane.Etcd;
import io.github.kubeharness.internal.controlplane.EtcdSeed;
import io.github.kubeharness.internal.controlplane.EtcdTls;
import io.github.kubeharness.internal.controlplane.Kwok;
import io.github.kubeharness.internal.controlplane.LocalComponent;
import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.controlplane.Scheduler;
import io.github.kubeharness.internal.controlplane.SeedSlots;
import io.github.kubeharness.internal.controlplane.SystemObjects;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.faults.FaultProxy;
import io.github.kubeharness.internal.faults.LazyFaultProxy;
import io.github.kubeharness.internal.faults.ProxyFaults;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.Waits;
import io.github.kubeharness.internal.provision.Binaries;
import io.github.kubeharness.internal.provision.BinaryResolver;
import io.github.kubeharness.internal.provision.Component;
import io.github.kubeharness.internal.reuse.KeptControlPlane;
import io.github.kubeharness.internal.storage.DefaultStorageClass;
import io.github.kubeharness.internal.storage.SimulatedProvisioner;
import io.github.kubeharness.simulation.Simulation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The {@code local} backend: etcd, kube-apiserver, (in the {@code standard} and {@code simulated}
 * profiles) kube-controller-manager and (in {@code simulated}) kube-scheduler and KWOK as child
 * processes of this JVM, envtest-style.
 *
 * <p>Ready means: etcd healthy, the apiserver's {@code /readyz} ok and the {@code default}
 * namespace created; in {@code standard} also the controller manager healthy and the {@code
 * default} ServiceAccount created, which proves its controllers run; in {@code simulated} also the
 * scheduler and KWOK healthy and every fake node Ready. A start that loses a port to another
 * process, or cannot start from the etcd seed, is tried again.
 */
final class LocalControlPlane extends AbstractControlPlane {

  private static final int PORT_CLASH_ATTEMPTS = 3;

  private ApiServer apiServer;
  private ControllerManager controllerManager;
  private ProxyFaults faults;
  private TinyCa ca;
  private Path auditLog;
  // Whether this attempt's apiserver answered: a failure after that is not the etcd seed's.
  private boolean apiServerUp;

  private final BackendOptions.Local local;
  // The etcd this control plane's apiserver stores into: its own, or (a cluster beside another,
  // @ControllerTest(clusters)) the other's, under a key prefix of its own.
  private SharedEtcd etcd;
  private final LocalControlPlane etcdOwner;
  private final String clusterName;
  // This control plane's etcd as the clusters beside it get it: launched, then started. They launch
  // on it while this one's apiserver still boots (a class's clusters share one boot's wall time).
  private volatile LaunchThenStart<SharedEtcd> etcdForOthers = new LaunchThenStart<>();
  // Where this control plane's apiserver keeps its keys in that etcd, and whether they were
  // bootstrapped before it started (the seed's /registry, or one of its slots).
  private Keyspace keyspace;

  LocalControlPlane(ControlPlaneOptions options, BackendOptions.Local local) {
    this(options, local, null, null);
  }

  private LocalControlPlane(
      ControlPlaneOptions options,
      BackendOptions.Local local,
      LocalControlPlane etcdOwner,
      String clusterName) {
    super(options, Backend.LOCAL);
    this.local = local;
    this.etcdOwner = etcdOwner;
    this.clusterName = clusterName;
  }

  /**
   * Where an apiserver reaches an etcd, the client certificate etcd asks of it, and the seed's
   * bootstrapped keyspaces still free for the clusters beside the one that runs it.
   */
  private record SharedEtcd(String url, EtcdTls tls, SeedSlots slots) {}

  /**
   * An etcd key prefix; {@code seeded} when what an apiserver writes at its first start is there.
   */
  private record Keyspace(String prefix, boolean seeded) {}

  /**
   * A second cluster ({@code name}) on this control plane's etcd: an apiserver of its own (own CA,
   * own port, own controller manager where the profile runs one) whose keys live under a prefix of
   * its own, so that it sees nothing of this one's objects: a free slot of the etcd seed ({@link
   * SeedSlots}), bootstrapped already, else {@code /registry-<name>}, bootstrapped by its first
   * start. Costs one apiserver boot, not an etcd. Started by its {@code start()}; stop it before
   * this one, whose etcd it needs.
   */
  LocalControlPlane besideOnSharedEtcd(String name) {
    if (options.reuse()) {
      throw new KubeHarnessException(
          "Cluster '"
              + name
              + "' cannot share the etcd of a control plane kept for other JVMs"
              + " (kubeharness.reuse=true): that etcd belongs to the keeper. A class with clusters"
              + " gets control planes of its own; with the Java API, build the options"
              + " withReuse(false).");
    }
    return new LocalControlPlane(options, local, this, name);
  }

  @Override
  public Optional<HarnessControlPlane> clusterOnSharedEtcd(String name) {
    return Optional.of(besideOnSharedEtcd(name));
  }

  /** What a cluster beside this one waits for, named in its timeout. */
  private static String firstOf(String name) {
    return "the control plane whose etcd cluster '" + name + "' shares";
  }

  @Override
  void startComponents() {
    ClientWarmUp.loadClassesInBackground();
    BinaryResolver resolver = new BinaryResolver(options);
    Binaries binaries = resolver.resolve(options.profile());
    Path kwok = options.profile().runs(Profile.Component.KWOK) ? Kwok.binary(options) : null;
    auditLog = null;
    if (etcdOwner != null) {
      startBeside(binaries, kwok);
    } else {
      if (etcdForOthers.hasFailed()) {
        etcdForOthers = new LaunchThenStart<>(); // started again after a stop
      }
      try {
        if (options.reuse()) {
          startOrAttach(resolver, binaries, kwok);
        } else {
          startWithRetries(resolver, binaries, kwok, RunDirectory.defaultRoot());
        }
      } catch (RuntimeException e) {
        etcdForOthers.failed(e);
        throw e;
      }
      etcdForOthers.started(etcd);
      // Closed when this control plane stops: a cluster beside it starting later is refused.
      started(
          () ->
              etcdForOthers =
                  LaunchThenStart.ended(
                      new IllegalStateException(
                          "the control plane it was made beside has stopped: start that control"
                              + " plane first")));
    }
    if (options.profile().runs(Profile.Component.KWOK)) {
      // In this JVM, also when attached to a kept control plane (whose keeper runs no Java): each
      // attached JVM provisions, and they agree on each volume's name.
      started(SimulatedProvisioner.start(newClient(), run().path().resolve("volumes")));
    }
  }

  // kubeharness.reuse: attach to the control plane an earlier JVM kept, or start one and hand it
  // to a keeper; under the kept directory's lock, so JVMs starting together share one.
  private void startOrAttach(BinaryResolver resolver, Binaries binaries, Path kwok) {
    KeptControlPlane kept = KeptControlPlane.of(options, local, binaries);
    try (AutoCloseable lock = kept.lock()) {
      // Registered before looking: a keeper about to stop for idleness sees this JVM and stays.
      Runnable detach = kept.attach();
      Optional<KeptControlPlane.State> state = kept.attachable();
      if (state.isEmpty()) {
        detach.run();
      } else {
        KeptControlPlane.State s = state.get();
        attached(RunDirectory.adopt(s.run()), s.apiServerUrl(), s.kubeconfig(), s.ca(), detach);
        if (options.profile().runs(Profile.Component.KWOK)) {
          // This JVM's setting, as a fresh start would have it (a test may have deleted it).
          try (KubernetesClient client = newClient()) {
            installDefaultStorageClass(client);
          }
        }
        auditLog = s.auditLog().orElse(null);
        options.progress().accept("attached to the kept control plane at " + s.apiServerUrl());
        return;
      }
      startWithRetries(resolver, binaries, kwok, kept.directory());
      kept.keep(
          run(),
          apiServerUrl(),
          kubeconfigFile(),
          apiServer.pid(),
          options.auditLog() ? Optional.of(apiServer.auditLogFile()) : Optional.empty(),
          ca);
      // The keeper owns the processes now; the controller manager is no longer this JVM's to
      // restart (new resource types reach its garbage collector by its own 30 s rediscovery).
      controllerManager = null;
      handedOver(kept.attach());
      options
          .progress()
          .accept(
              "keeping this control plane for the next JVM (kubeharness.reuse); it stops after "
                  + local.reuseIdleTimeout().toMinutes()
                  + " min without one, or with kube-harness down");
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new KubeHarnessException("Cannot reuse a kept control plane: " + e, e);
    }
  }

  // Launched as soon as the first cluster's etcd is (it may still boot), then held before its own
  // readiness waits until the first cluster has started: on the etcd it launched on, else (the
  // first cluster started again, on new ports) launched anew on the etcd that is up.
  private void startBeside(Binaries binaries, Path kwok) {
    long deadline = Waits.deadline(options.startTimeout());
    SharedEtcd shared;
    try {
      shared = etcdOwner.etcdForOthers.awaitLaunched(deadline, firstOf(clusterName));
    } catch (RuntimeException e) {
      throw besideFailed("its etcd did not come up: " + e.getMessage(), e);
    }
    for (int attempt = 1; ; attempt++) {
      // Claimed once per etcd, kept over a retry on new ports: a failed attempt wrote only this
      // cluster's start-up objects there.
      if (etcd != shared) {
        keyspace = keyspaceOn(shared);
        etcd = shared;
      }
      RunDirectory run = newRunDirectory(RunDirectory.defaultRoot());
      SharedEtcd launchedOn = shared;
      try {
        startComponents(binaries, kwok, null, run.path(), () -> awaitFirst(launchedOn, deadline));
        return;
      } catch (EtcdMoved moved) {
        stopStarted(moved);
        shared = moved.etcd;
        attempt--;
      } catch (RuntimeException e) {
        stopStarted(e);
        if (portTakenMeanwhile(e, attempt)) {
          continue;
        }
        throw besideFailed(e.getMessage(), e);
      }
    }
  }

  private KubeHarnessException besideFailed(String why, RuntimeException e) {
    return new KubeHarnessException(
        "Cluster '" + clusterName + "' (an apiserver on the shared etcd) failed to start: " + why,
        e);
  }

  // A free slot of the etcd seed on `shared`, else a prefix this cluster's apiserver bootstraps.
  private Keyspace keyspaceOn(SharedEtcd shared) {
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
                          + clusterName
                          + "': no bootstrapped keyspace of the etcd seed is free (it has "
                          + EtcdSeed.SLOTS
                          + " for the clusters beside the first), so its apiserver bootstraps"
                          + " /registry-"
                          + clusterName
                          + " itself, which takes it a second or two longer");
              return new Keyspace("/registry-" + clusterName, false);
            });
  }

  // Before this cluster's readiness waits: the first cluster started, on the etcd launched on.
  private void awaitFirst(SharedEtcd launchedOn, long deadline) {
    SharedEtcd up;
    try {
      up = etcdOwner.etcdForOthers.awaitStarted(deadline, firstOf(clusterName));
    } catch (RuntimeException e) {
      throw new KubeHarnessException(
          "the control plane whose etcd it shares did not start: " + e.getMessage(), e);
    }
    if (up != launchedOn) {
      throw new EtcdMoved(up);
    }
  }

  /** The first cluster started on another etcd than the one this cluster launched on. */
  private static final class EtcdMoved extends RuntimeException {
    private final transient SharedEtcd etcd;

    EtcdMoved(SharedEtcd etcd) {
      super("the first cluster started on a new etcd", null, false, false);
      this.etcd = etcd;
    }
  }

  // Free ports are picked before the processes bind them: another process may take one in between.
  // Worth another start on new ports, a few times.
  private static boolean portTakenMeanwhile(RuntimeException e, int attempt) {
    return attempt < PORT_CLASH_ATTEMPTS
        && String.valueOf(e.getMessage()).contains("address already in use");
  }

  private void startWithRetries(
      BinaryResolver resolver, Binaries binaries, Path kwok, Path runRoot) {
    EtcdSeed seed = seedFor(binaries);
    for (int attempt = 1; ; attempt++) {
      RunDirectory run = newRunDirectory(runRoot);
      try {
        startComponents(binaries, kwok, seed, run.path(), () -> {});
        return;
      } catch (RuntimeException e) {
        stopStarted(e);
        // The failed run directory (and the logs the message points to) stays until JVM exit.
        if (portTakenMeanwhile(e, attempt)) {
          options
              .progress()
              .accept("a port was taken by another process meanwhile; starting again on new ports");
          continue;
        }
        if (seed != null && !apiServerUp) {
          options
              .progress()
              .accept(
                  "starting from the etcd seed failed ("
                      + firstLine(e)
                      + "); discarded it, starting empty");
          seed.discard();
          seed = null;
          continue;
        }
        throw explainCorruptCache(resolver, binaries, e);
      }
    }
  }

  // Start-up is arranged so that the JVM's own cold work overlaps the processes' boot: etcd is
  // launched before the apiserver's certificates are made, kube-apiserver before etcd is ready (it
  // retries
  // etcd), and the admin client's classes (a second or two of class loading in a fresh JVM) are
  // loaded while they boot. Measured with `make bench`.
  //
  // beforeWaits runs once every process of this start is launched, before the first wait: a cluster
  // beside another waits there for the other's start.
  private void startComponents(
      Binaries binaries, Path kwok, EtcdSeed seed, Path run, Runnable beforeWaits) {
    long deadline = Waits.deadline(options.startTimeout());
    apiServerUp = false;
    // etcd's certificates are the only keys made before a process is launched: it must not
    // listen for a moment without them.
    Etcd ownEtcd = null;
    List<String> apiServerFlags = new ArrayList<>(options.extraApiServerFlags());
    if (etcdOwner == null) {
      EtcdTls etcdTls = EtcdTls.create();
      ownEtcd = component(new Etcd(binaries.etcd(), run, seed, etcdTls));
      ownEtcd.launch();
      etcd = new SharedEtcd(ownEtcd.clientUrl(), etcdTls, SeedSlots.of(seed));
      keyspace = new Keyspace("/registry", seed != null);
      etcdForOthers.launched(etcd);
    } else {
      // The same etcd, the same client certificate (etcd trusts one CA of its own), a key prefix
      // of this cluster's own (startBeside): /registry stays the first cluster's.
      apiServerFlags.add("--etcd-prefix=" + keyspace.prefix());
    }
    ca = TinyCa.create("kube-harness-ca");
    apiServer =
        component(
            new ApiServer(
                binaries.kubeApiServer(),
                run,
                Pki.create(ca, List.of(), etcd.tls()),
                etcd.url(),
                options.auditLog(),
                options.profile(),
                apiServerFlags));
    apiServer.launch();
    connected(apiServer.url(), ca);
    // Started on first use (Faults). Not for a kept control plane: restarting its apiserver would
    // pull it from under the other JVMs.
    if (!options.reuse()) {
      LazyFaultProxy proxy = started(new LazyFaultProxy(apiServer.pki(), apiServer.port()));
      faults = new ProxyFaults(proxy, downtime -> apiServerDown(proxy.get(), downtime));
    }
    if (!options.profile().runs(Profile.Component.KUBE_CONTROLLER_MANAGER)) {
      // Nothing here needs a fabric8 client: the JDK's HTTP client, which the readiness probes
      // have loaded already, checks the default namespace. A fresh JVM spent ~1.2 s making the
      // first fabric8 request and closing that client (timestamps in start(), 2026-12-03).
      beforeWaits.run();
      awaitEtcd(ownEtcd, deadline);
      apiServer.awaitReady(Waits.remaining(deadline), keyspace.seeded());
      apiServerUp = true;
      Waits.until(
          "the default namespace to be created by kube-apiserver",
          deadline,
          apiServer.probes().defaultNamespace());
      return;
    }
    CompletableFuture<KubernetesClient> warmClient = ClientWarmUp.start(this::newClient);
    try {
      beforeWaits.run();
      awaitEtcd(ownEtcd, deadline);
      apiServer.awaitReady(Waits.remaining(deadline), keyspace.seeded());
      apiServerUp = true;
    } catch (RuntimeException e) {
      warmClient.thenAccept(KubernetesClient::close);
      throw e;
    }
    try (KubernetesClient client = warmClient.join()) {
      SystemObjects.awaitDefaultNamespace(client, deadline);
      Simulated simulated =
          options.profile().runs(Profile.Component.KUBE_SCHEDULER)
              ? launchSimulation(binaries, kwok, run)
              : null;
      // Not launched before /healthz answers: the controller manager asks it once, and on a miss
      // only a second later. On a seeded etcd /readyz was asked without two bootstrap hooks, which
      // wait a second before their first try; launched at /readyz, one start in five missed them
      // by a hair and lost that second (p90 3.07 s -> 2.19 s, medians equal, n=15 alternating).
      apiServer.awaitHealthy(Waits.remaining(deadline));
      controllerManager =
          component(
              new ControllerManager(
                  binaries.requireControllerManager(),
                  run,
                  kubeconfigFor(
                      apiServer.url(), "system:kube-controller-manager", List.of("system:masters")),
                  options.profile()));
      controllerManager.start(Waits.remaining(deadline));
      // The fake nodes are registered while the controller manager's controllers start: the
      // default ServiceAccount takes it about a second, the nodes a few hundred milliseconds.
      CompletableFuture<Void> nodes =
          simulated == null
              ? CompletableFuture.completedFuture(null)
              : CompletableFuture.runAsync(() -> awaitSimulation(simulated, client, deadline))
                  .thenRun(() -> installDefaultStorageClass(client));
      SystemObjects.awaitDefaultServiceAccount(client, deadline);
      try {
        nodes.join();
      } catch (CompletionException e) {
        throw e.getCause() instanceof RuntimeException cause ? cause : e;
      }
    }
  }

  /** The etcd key prefix this control plane's apiserver stores under (known once started). */
  String etcdPrefix() {
    return keyspace == null ? null : keyspace.prefix();
  }

  private static void awaitEtcd(Etcd own, long deadline) {
    if (own != null) {
      own.awaitReady(Waits.remaining(deadline));
    }
  }

  // A kept control plane's processes outlive this JVM under the keeper, in sessions of their own:
  // a Ctrl-C of the build must not stop them (LocalComponent.runInOwnSession).
  private <T extends LocalComponent> T component(T component) {
    if (options.reuse()) {
      component.runInOwnSession();
    }
    return started(component);
  }

  /** kube-scheduler and KWOK, launched together with the controller manager. */
  private record Simulated(Scheduler scheduler, Kwok kwok) {}

  /** Both healthy, then the fake nodes registered and made Ready. */
  private void awaitSimulation(Simulated simulated, KubernetesClient client, long deadline) {
    simulated.scheduler().awaitReady(Waits.remaining(deadline));
    simulated.kwok().awaitReady(Waits.remaining(deadline));
    Simulation simulation = new Simulation(this, client);
    for (int i = 1; i <= local.simulatedNodes(); i++) {
      simulation.addNode("simulated-node-" + i);
    }
  }

  private void installDefaultStorageClass(KubernetesClient client) {
    local.defaultStorageClass().ifPresent(name -> DefaultStorageClass.install(client, name));
  }

  private Simulated launchSimulation(Binaries binaries, Path kwokBinary, Path run) {
    Scheduler scheduler =
        component(
            new Scheduler(
                binaries.requireScheduler(),
                run,
                kubeconfigFor(apiServer.url(), "system:kube-scheduler", List.of())));
    scheduler.launch();
    // KWOK writes the status of nodes and pods, as kubelets do (with the rights of one for all).
    Kwok kwok =
        component(
            new Kwok(
                kwokBinary,
                run,
                kubeconfigFor(apiServer.url(), "kube-harness-kwok", List.of("system:masters")),
                local.podStartDelay(),
                options.kubernetesVersion()));
    kwok.launch();
    return new Simulated(scheduler, kwok);
  }

  // No seed under extra apiserver flags: they may change what the apiserver writes at start (a
  // service range, disabled groups), and a seed made without them would not match.
  private EtcdSeed seedFor(Binaries binaries) {
    if (!options.extraApiServerFlags().isEmpty()) {
      return null;
    }
    try {
      return EtcdSeed.forBinaries(
          binaries, options.cacheDirectory(), options.startTimeout(), options.progress());
    } catch (RuntimeException e) {
      options.progress().accept(firstLine(e) + "; starting without a seed");
      return null;
    }
  }

  private static String firstLine(Exception e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
  }

  private RuntimeException explainCorruptCache(
      BinaryResolver resolver, Binaries binaries, RuntimeException failure) {
    if (!binaries.origin().contains("cache")) {
      return failure;
    }
    try {
      for (Component binary : BinaryResolver.needed(options.profile(), false)) {
        resolver.cache().verify(binary);
      }
      return failure;
    } catch (KubeHarnessException corrupt) {
      corrupt.addSuppressed(failure);
      return corrupt;
    }
  }

  /**
   * Restarts kube-controller-manager (standard profile) so that its garbage collector sees the new
   * resource types at once, not after its 30 s rediscovery.
   */
  @Override
  synchronized void newResourceTypesInstalled() {
    if (controllerManager != null) {
      controllerManager.close();
      controllerManager.start(options.startTimeout());
    }
  }

  /**
   * Not on one kept for other JVMs (kubeharness.reuse): restarting its apiserver would hurt them.
   */
  @Override
  public Optional<ProxyFaults> proxyFaults() {
    return isRunning() && !options.reuse() ? Optional.ofNullable(faults) : Optional.empty();
  }

  @Override
  public ProxyFaults faults() {
    if (options.reuse()) {
      throw new UnsupportedOperationException(
          "Faults need a control plane this JVM owns: this one is kept for other JVMs"
              + " (kubeharness.reuse=true), and restarting its apiserver would pull it from under"
              + " them. @ControllerTest classes with a Faults field get a control plane of their"
              + " own; with the Java API, build the options withReuse(false).");
    }
    if (!isRunning() || faults == null) {
      throw new IllegalStateException("faults() needs a running control plane: call start() first");
    }
    return faults;
  }

  private synchronized void apiServerDown(FaultProxy proxy, Duration downtime) {
    proxy.suspend();
    try {
      apiServer.restart(downtime, options.startTimeout());
    } finally {
      proxy.resume();
    }
  }

  @Override
  public Optional<Path> auditLogFile() {
    if (!isRunning() || !options.auditLog()) {
      return Optional.empty();
    }
    // Attached to a kept control plane, this JVM has no ApiServer of its own.
    return Optional.of(auditLog != null ? auditLog : apiServer.auditLogFile());
  }
}
