package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.client.ClientWarmUp;
import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.faults.LazyFaultProxy;
import io.github.kubeharness.internal.faults.ProxyFaults;
import io.github.kubeharness.internal.process.Waits;
import io.github.kubeharness.internal.provision.Binaries;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongPredicate;

/**
 * One try at starting a local control plane's processes on an etcd that its start strategy ({@link
 * LocalStart}) launched or shares, in a fresh run directory: kube-apiserver, the admin kubeconfig,
 * the fault proxy, and where the profile runs them the controller manager and the add-on's
 * components; then the waits for all of it. The strategy makes one per try and decides what a
 * failure means (a {@link io.github.kubeharness.internal.process.PortTaken} is worth another try).
 *
 * <p>Start-up is arranged so that the JVM's own cold work overlaps the processes' boot: etcd is
 * launched before the apiserver's certificates are made, kube-apiserver before etcd is ready (it
 * retries etcd), and the admin client's classes (a second or two of class loading in a fresh JVM)
 * are loaded while they boot. Measured with `make bench`.
 */
final class StartAttempt {

  private final LocalStart.Inputs in;
  private final ControlPlaneOptions options;
  private final Path run;
  private final boolean keptForOthers;
  private final long deadline;
  // Whether kube-apiserver answered: a failure after that is not the etcd seed's.
  private boolean apiServerUp;

  /**
   * @param keptForOthers the control plane is kept for other JVMs ({@code kubeharness.reuse}): its
   *     processes run in sessions of their own, and it gets no fault proxy
   */
  StartAttempt(LocalStart.Inputs in, Path run, boolean keptForOthers) {
    this.in = in;
    this.options = in.plane().options();
    this.run = run;
    this.keptForOthers = keptForOthers;
    this.deadline = Waits.deadline(options.startTimeout());
  }

  /** When this try must be over (its processes ready). */
  long deadline() {
    return deadline;
  }

  /** This try's run directory. */
  Path run() {
    return run;
  }

  LocalPlane plane() {
    return in.plane();
  }

  Binaries binaries() {
    return in.binaries();
  }

  /** Whether kube-apiserver answered before this try failed. */
  boolean apiServerUp() {
    return apiServerUp;
  }

  /**
   * Launches kube-apiserver on {@code etcd} under {@code keyspace} and the rest of the profile, and
   * waits until they are ready. {@code beforeWaits} runs once every process of this try is
   * launched, before the first wait (a cluster beside another waits there for the other's start);
   * when it says no, what this try launched on is gone: empty is returned, and the caller stops
   * what was started and tries again.
   */
  Optional<LocalProcesses> launch(
      SharedEtcd etcd, Keyspace keyspace, List<String> apiServerFlags, LongPredicate beforeWaits) {
    TinyCa ca = TinyCa.create("kube-harness-ca");
    ApiServer apiServer =
        component(
            new ApiServer(
                in.binaries().kubeApiServer(),
                run,
                Pki.create(ca, List.of(), etcd.tls()),
                etcd.url(),
                options.auditLog(),
                options.profile(),
                apiServerFlags));
    apiServer.launch();
    plane().connected(apiServer.url(), ca);
    ProxyFaults faults = null;
    // Started on first use (Faults). Not for a kept control plane: restarting its apiserver would
    // pull it from under the other JVMs.
    if (!keptForOthers) {
      LazyFaultProxy proxy = plane().started(new LazyFaultProxy(apiServer.pki(), apiServer.port()));
      faults =
          new ProxyFaults(
              proxy, downtime -> plane().apiServerDown(proxy.get(), apiServer, downtime));
    }
    LocalProcesses minimal =
        new LocalProcesses(
            apiServer,
            null,
            faults,
            options.auditLog() ? Optional.of(apiServer.auditLogFile()) : Optional.empty(),
            etcd,
            keyspace);
    if (!options.profile().runs(Profile.Component.KUBE_CONTROLLER_MANAGER)) {
      // Nothing here needs a fabric8 client: the JDK's HTTP client, which the readiness probes
      // have loaded already, checks the default namespace. A fresh JVM spent ~1.2 s making the
      // first fabric8 request and closing that client (timestamps in start(), 2026-12-03).
      if (!beforeWaits.test(deadline)) {
        return Optional.empty();
      }
      apiServer.awaitReady(Waits.remaining(deadline), keyspace.seeded());
      apiServerUp = true;
      Waits.until(
          "the default namespace to be created by kube-apiserver",
          deadline,
          apiServer.probes().defaultNamespace());
      return Optional.of(minimal);
    }
    CompletableFuture<KubernetesClient> warmClient = ClientWarmUp.start(plane()::newClient);
    try {
      if (!beforeWaits.test(deadline)) {
        warmClient.thenAccept(KubernetesClient::close);
        return Optional.empty();
      }
      apiServer.awaitReady(Waits.remaining(deadline), keyspace.seeded());
      apiServerUp = true;
    } catch (RuntimeException e) {
      warmClient.thenAccept(KubernetesClient::close);
      throw e;
    }
    try (KubernetesClient client = warmClient.join()) {
      return Optional.of(withControllerManager(minimal, client));
    }
  }

  private LocalProcesses withControllerManager(LocalProcesses minimal, KubernetesClient client) {
    ApiServer apiServer = minimal.apiServer();
    SystemObjects.awaitDefaultNamespace(client, deadline);
    LocalAddOn.Launched addOn = in.addOn().launch(this, apiServer);
    // Not launched before /healthz answers: the controller manager asks it once, and on a miss
    // only a second later. On a seeded etcd /readyz was asked without two bootstrap hooks, which
    // wait a second before their first try; launched at /readyz, one start in five missed them
    // by a hair and lost that second (p90 3.07 s -> 2.19 s, medians equal, n=15 alternating).
    apiServer.awaitHealthy(Waits.remaining(deadline));
    ControllerManager controllerManager =
        component(
            new ControllerManager(
                in.binaries().requireControllerManager(),
                run,
                plane()
                    .kubeconfigFor(
                        apiServer.url(),
                        "system:kube-controller-manager",
                        List.of("system:masters")),
                options.profile()));
    controllerManager.start(Waits.remaining(deadline));
    // The add-on's parts (the fake nodes) come up while the controller manager's controllers
    // start: the default ServiceAccount takes it about a second, the nodes a few hundred ms.
    CompletableFuture<Void> addOnReady = addOn.ready(client, deadline);
    SystemObjects.awaitDefaultServiceAccount(client, deadline);
    try {
      addOnReady.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
    return new LocalProcesses(
        apiServer,
        controllerManager,
        minimal.faults(),
        minimal.auditLog(),
        minimal.etcd(),
        minimal.keyspace());
  }

  /**
   * Registers a component of this try with the plane. A kept control plane's processes outlive this
   * JVM under the keeper, in sessions of their own: a Ctrl-C of the build must not stop them
   * ({@link LocalComponent#runInOwnSession}).
   */
  <T extends LocalComponent> T component(T component) {
    if (keptForOthers) {
      component.runInOwnSession();
    }
    return plane().started(component);
  }
}
