package io.github.kubeharness.internal.backend;

import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.client.ClientWarmUp;
import io.github.kubeharness.internal.faults.FaultProxy;
import io.github.kubeharness.internal.faults.ProxyFaults;
import io.github.kubeharness.internal.provision.Binaries;
import io.github.kubeharness.internal.provision.BinaryResolver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

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
 *
 * <p>How it starts is a part chosen when it is made ({@link LocalStart}: fresh, kept for other
 * JVMs, beside another cluster's etcd); what the profile adds is another ({@link LocalAddOn}),
 * composed onto whichever start.
 */
final class LocalControlPlane extends AbstractControlPlane implements LocalPlane {

  private final BackendOptions.Local local;
  private final LocalStart start;
  private final LocalAddOn addOn;
  // This control plane's etcd as the clusters made beside it get it (besideOnSharedEtcd).
  private final EtcdForOthers etcdForOthers = new EtcdForOthers();
  // What the last start left this JVM to act on; null before the first.
  private volatile LocalProcesses processes;

  LocalControlPlane(ControlPlaneOptions options, BackendOptions.Local local) {
    this(
        options,
        local,
        ownEtcd ->
            options.reuse() ? new KeptStart(new FreshStart(ownEtcd)) : new FreshStart(ownEtcd));
  }

  private LocalControlPlane(
      ControlPlaneOptions options,
      BackendOptions.Local local,
      Function<EtcdForOthers, LocalStart> start) {
    super(options, Backend.LOCAL);
    this.local = local;
    this.start = start.apply(etcdForOthers);
    this.addOn = SimulatedComponents.forProfile(options, local);
  }

  /**
   * A second cluster ({@code name}) on this control plane's etcd, under a key prefix of its own
   * ({@link BesideStart}). Started by its {@code start()}, which may run while this one's does;
   * stop it before this one, whose etcd it needs.
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
    return new LocalControlPlane(options, local, ignored -> new BesideStart(etcdForOthers, name));
  }

  /**
   * As {@link #besideOnSharedEtcd(String)}, with a start timeout of its own: a test of a cluster
   * that must fail to start gives only that one a short timeout, and its first cluster the time a
   * loaded machine may need.
   */
  LocalControlPlane besideOnSharedEtcd(String name, java.time.Duration startTimeout) {
    besideOnSharedEtcd(name); // the same refusals
    return new LocalControlPlane(
        options.toBuilder().withStartTimeout(startTimeout).build(),
        local,
        ignored -> new BesideStart(etcdForOthers, name));
  }

  @Override
  public Optional<HarnessControlPlane> clusterOnSharedEtcd(String name) {
    return Optional.of(besideOnSharedEtcd(name));
  }

  @Override
  void startComponents() {
    ClientWarmUp.loadClassesInBackground();
    start.prepare();
    BinaryResolver resolver = new BinaryResolver(options);
    Binaries binaries = resolver.resolve(options.profile());
    LocalAddOn resolved = addOn.resolved();
    processes = start.start(new LocalStart.Inputs(this, local, resolver, binaries, resolved));
    resolved.started(this);
  }

  /** The etcd key prefix this control plane's apiserver stores under (known once started). */
  String etcdPrefix() {
    LocalProcesses current = processes;
    return current == null || current.keyspace() == null ? null : current.keyspace().prefix();
  }

  /**
   * Restarts kube-controller-manager (standard profile) so that its garbage collector sees the new
   * resource types at once, not after its 30 s rediscovery.
   */
  @Override
  synchronized void newResourceTypesInstalled() {
    ControllerManager controllerManager = processes == null ? null : processes.controllerManager();
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
    return isRunning() && !options.reuse()
        ? Optional.ofNullable(processes.faults())
        : Optional.empty();
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
    if (!isRunning() || processes.faults() == null) {
      throw new IllegalStateException("faults() needs a running control plane: call start() first");
    }
    return processes.faults();
  }

  @Override
  public Optional<Path> auditLogFile() {
    if (!isRunning() || !options.auditLog()) {
      return Optional.empty();
    }
    // Attached to a kept control plane, this JVM has no ApiServer of its own: the keeper's log.
    return processes.auditLog();
  }

  @Override
  public ControlPlane controlPlane() {
    return this;
  }

  /** The proxy's port closes with the apiserver's; one downtime at a time. */
  @Override
  public synchronized void apiServerDown(FaultProxy proxy, ApiServer apiServer, Duration downtime) {
    proxy.suspend();
    try {
      apiServer.restart(downtime, options.startTimeout());
    } finally {
      proxy.resume();
    }
  }
}
