package io.github.kubeharness;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.internal.controlplane.ApiServer;
import io.github.kubeharness.internal.controlplane.ClientWarmUp;
import io.github.kubeharness.internal.controlplane.ControllerManager;
import io.github.kubeharness.internal.controlplane.ControllerManagerRestart;
import io.github.kubeharness.internal.controlplane.Etcd;
import io.github.kubeharness.internal.controlplane.EtcdSeed;
import io.github.kubeharness.internal.controlplane.Identities;
import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.controlplane.SystemObjects;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.ShutdownHooks;
import io.github.kubeharness.internal.provision.Binaries;
import io.github.kubeharness.internal.provision.BinaryResolver;
import io.github.kubeharness.internal.provision.Component;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code local} backend: etcd, kube-apiserver and (in the {@code standard} profile)
 * kube-controller-manager as child processes of this JVM, envtest-style.
 *
 * <p>Ready means: etcd healthy, the apiserver's {@code /readyz} ok and the {@code default}
 * namespace created; in {@code standard} also the controller manager healthy and the {@code
 * default} ServiceAccount created, which proves its controllers run. Start failures stop what was
 * started and report the failing component's log tail and log path; stop runs in reverse order and
 * keeps going past failures.
 */
public final class LocalControlPlane implements ControlPlane, ControllerManagerRestart {

  private static final int PORT_CLASH_ATTEMPTS = 3;

  private final ControlPlaneOptions options;
  private RunDirectory run;
  private TinyCa ca;
  private Etcd etcd;
  private ApiServer apiServer;
  private ControllerManager controllerManager;
  private String kubeconfig;
  private Path kubeconfigFile;
  private volatile boolean running;

  LocalControlPlane(ControlPlaneOptions options) {
    this.options = options;
  }

  @Override
  public synchronized void start() {
    if (running) {
      return;
    }
    ClientWarmUp.loadClassesInBackground();
    BinaryResolver resolver = new BinaryResolver(options);
    Binaries binaries = resolver.resolve(options.profile());
    EtcdSeed seed = seedFor(binaries);
    for (int attempt = 1; ; attempt++) {
      run = RunDirectory.create(RunDirectory.defaultRoot());
      try {
        startComponents(binaries, seed);
        break;
      } catch (RuntimeException e) {
        stopComponents(e);
        // Keep the run directory (and so the log files the message points to) until JVM exit.
        if (attempt < PORT_CLASH_ATTEMPTS
            && String.valueOf(e.getMessage()).contains("address already in use")) {
          options
              .progress()
              .accept("a port was taken by another process meanwhile; starting again on new ports");
          continue;
        }
        if (seed != null) {
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
    running = true;
    ShutdownHooks.register(this);
  }

  // Start-up is arranged so that the JVM's own cold work overlaps the processes' boot: etcd is
  // launched before the certificates are made, kube-apiserver before etcd is ready (it retries
  // etcd), and the admin client's classes (a second or two of class loading in a fresh JVM) are
  // loaded while they boot. Measured with `make bench`.
  private void startComponents(Binaries binaries, EtcdSeed seed) {
    long deadline = System.nanoTime() + options.startTimeout().toNanos();
    etcd = new Etcd(binaries.etcd(), run.path(), seed);
    etcd.launch();
    ca = TinyCa.create("kube-harness-ca");
    Pki pki = Pki.create(ca, List.of());
    apiServer =
        new ApiServer(
            binaries.kubeApiServer(),
            run.path(),
            pki,
            etcd.clientUrl(),
            options.auditLog(),
            apiServerFlags());
    apiServer.launch();
    kubeconfig = kubeconfigFor("kube-harness-admin", List.of("system:masters"));
    kubeconfigFile = Identities.write(run.path().resolve("kubeconfig"), kubeconfig);
    CompletableFuture<KubernetesClient> warmClient = ClientWarmUp.start(this::newClient);
    try {
      etcd.awaitReady(remaining(deadline));
      apiServer.awaitReady(remaining(deadline), seed != null);
    } catch (RuntimeException e) {
      warmClient.thenAccept(KubernetesClient::close);
      throw e;
    }
    try (KubernetesClient client = warmClient.join()) {
      SystemObjects.awaitDefaultNamespace(client, deadline);
      if (options.profile() == Profile.STANDARD) {
        // Not launched earlier: it checks the apiserver once a second, and a miss costs a second.
        controllerManager =
            new ControllerManager(
                binaries.requireControllerManager(),
                run.path(),
                kubeconfigFor("system:kube-controller-manager", List.of("system:masters")));
        controllerManager.start(remaining(deadline));
        SystemObjects.awaitDefaultServiceAccount(client, deadline);
      }
    }
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

  private List<String> apiServerFlags() {
    List<String> flags = new java.util.ArrayList<>();
    if (options.profile() == Profile.MINIMAL) {
      // As envtest does: without kube-controller-manager no `default` ServiceAccount is ever
      // created, and the admission plugin would reject every pod that relies on it.
      flags.add("--disable-admission-plugins=ServiceAccount");
    }
    flags.addAll(options.extraApiServerFlags());
    return flags;
  }

  private String kubeconfigFor(String user, List<String> groups) {
    return new Identities(ca).kubeconfig(apiServer.url(), user, groups);
  }

  @Override
  public synchronized void stop() {
    if (run == null) {
      return;
    }
    RuntimeException failure = new KubeHarnessException("Stopping the control plane failed");
    stopComponents(failure);
    run.close();
    run = null;
    running = false;
    ShutdownHooks.unregister(this);
    if (failure.getSuppressed().length > 0) {
      throw failure;
    }
  }

  // Reverse start order; every component gets its stop even when an earlier one fails.
  private void stopComponents(RuntimeException collector) {
    for (Runnable stop :
        List.<Runnable>of(
            () -> {
              if (controllerManager != null) controllerManager.stop();
            },
            () -> {
              if (apiServer != null) apiServer.stop();
            },
            () -> {
              if (etcd != null) etcd.stop();
            })) {
      try {
        stop.run();
      } catch (RuntimeException e) {
        collector.addSuppressed(e);
      }
    }
  }

  private RuntimeException explainCorruptCache(
      BinaryResolver resolver, Binaries binaries, RuntimeException failure) {
    if (!binaries.origin().contains("cache")) {
      return failure;
    }
    try {
      resolver.cache().verify(Component.ETCD);
      resolver.cache().verify(Component.KUBE_APISERVER);
      if (options.profile() == Profile.STANDARD) {
        resolver.cache().verify(Component.KUBE_CONTROLLER_MANAGER);
      }
      return failure;
    } catch (KubeHarnessException corrupt) {
      corrupt.addSuppressed(failure);
      return corrupt;
    }
  }

  /**
   * Restarts kube-controller-manager (standard profile; a no-op otherwise) so that its garbage
   * collector sees resource types added since it started at once, not after its 30 s rediscovery.
   */
  @Override
  public synchronized void restartControllerManager() {
    if (controllerManager == null) {
      return;
    }
    controllerManager.stop();
    controllerManager.start(options.startTimeout());
  }

  @Override
  public synchronized KubeUser addUser(String name, List<String> groups) {
    requireRunning("addUser");
    return new Identities(ca).user(apiServer.url(), name, groups, run.subdirectory("users"));
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public Profile profile() {
    return options.profile();
  }

  @Override
  public String apiServerUrl() {
    requireRunning("apiServerUrl");
    return apiServer.url();
  }

  @Override
  public String kubeconfig() {
    requireStarted("kubeconfig");
    return kubeconfig;
  }

  @Override
  public Path kubeconfigFile() {
    requireStarted("kubeconfigFile");
    return kubeconfigFile;
  }

  /** The run directory holding logs, certificates and etcd data; deleted on stop. */
  public Path runDirectory() {
    requireRunning("runDirectory");
    return run.path();
  }

  @Override
  public java.util.Optional<Path> auditLogFile() {
    return running && options.auditLog()
        ? java.util.Optional.of(apiServer.auditLogFile())
        : java.util.Optional.empty();
  }

  /** Process ids of the running components, etcd first (for leak checks and diagnostics). */
  public List<Long> pids() {
    requireRunning("pids");
    List<Long> pids = new java.util.ArrayList<>();
    pids.add(etcd.process().pid());
    pids.add(apiServer.process().pid());
    if (controllerManager != null) {
      pids.add(controllerManager.process().pid());
    }
    return pids;
  }

  private void requireRunning(String what) {
    if (!running) {
      throw new IllegalStateException(
          what + "() needs a started control plane: call start() first");
    }
  }

  private void requireStarted(String what) {
    if (kubeconfig == null || run == null) {
      throw new IllegalStateException(
          what + "() needs a started control plane: call start() first");
    }
  }

  private static Duration remaining(long deadline) {
    return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
  }
}
