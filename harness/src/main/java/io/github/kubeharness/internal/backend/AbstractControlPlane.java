package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.KubeUser;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.client.Clients;
import io.github.kubeharness.internal.controlplane.Identities;
import io.github.kubeharness.internal.controlplane.Kubeconfig;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.manifest.CrdInstaller;
import io.github.kubeharness.internal.manifest.ManifestApplier;
import io.github.kubeharness.internal.manifest.ManifestFiles;
import io.github.kubeharness.internal.process.PrivateFiles;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.ShutdownHooks;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * What every backend shares, so that a backend is only its start: the start/stop sequence (what was
 * started is stopped in reverse order, every part even when one fails, and with the JVM), the admin
 * kubeconfig, identities, CRD installation and manifests. A backend implements {@link
 * #startComponents()}, registering each part with {@link #started} and finishing with {@link
 * #connected}; it overrides {@link #newResourceTypesInstalled()} when it must act on new CRDs.
 */
abstract class AbstractControlPlane implements HarnessControlPlane {

  final ControlPlaneOptions options;
  private final Backend backend;
  private final Deque<AutoCloseable> started = new ArrayDeque<>();
  private RunDirectory run;
  private TinyCa ca;
  private String apiServerUrl;
  private String kubeconfig;
  private Path kubeconfigFile;
  private KubernetesClient admin;
  private CrdInstaller crds;
  private String serverVersion;
  // Set for a control plane kept for other JVMs (kubeharness.reuse): stop() only detaches.
  private Runnable detach;
  private volatile boolean running;

  AbstractControlPlane(ControlPlaneOptions options, Backend backend) {
    this.options = options;
    this.backend = backend;
  }

  @Override
  public ControlPlaneOptions options() {
    return options;
  }

  /** Starts every part and calls {@link #connected}; on failure the base stops what started. */
  abstract void startComponents();

  /** Called after CRDs of new resource types were installed. */
  void newResourceTypesInstalled() {}

  @Override
  public final synchronized void start() {
    if (running) {
      return;
    }
    try {
      startComponents();
    } catch (RuntimeException e) {
      stopStarted(e);
      throw e;
    }
    running = true;
    ShutdownHooks.register(this);
  }

  @Override
  public final synchronized void stop() {
    if (!running && run == null) {
      return; // never started, or stopped already (a failed start keeps its logs until here)
    }
    RuntimeException failure =
        new KubeHarnessException(
            "Stopping the " + backend.settingValue() + " control plane failed");
    serverVersion = null;
    if (admin != null) {
      admin.close();
      admin = null;
      crds = null;
    }
    stopStarted(failure);
    if (run != null) {
      run.close(); // a kept run is not deleted
      run = null;
    }
    if (detach != null) {
      detach.run();
      detach = null;
    }
    // What pointed at the stopped API server is gone with it: asking again fails clearly.
    apiServerUrl = null;
    kubeconfig = null;
    kubeconfigFile = null;
    ca = null;
    running = false;
    ShutdownHooks.unregister(this);
    if (failure.getSuppressed().length > 0) {
      throw failure;
    }
  }

  /** A fresh run directory; an earlier one of a failed attempt stays (its logs) until JVM exit. */
  final RunDirectory newRunDirectory() {
    return newRunDirectory(RunDirectory.defaultRoot());
  }

  /** A fresh run directory under {@code root}. */
  public final RunDirectory newRunDirectory(Path root) {
    run = RunDirectory.create(root);
    return run;
  }

  /**
   * This JVM attaches to a control plane another JVM kept: its run directory, admin kubeconfig and
   * CA; {@code detach} is run on stop instead of stopping anything.
   */
  public final void attached(
      RunDirectory keptRun, String url, Path kubeconfig, TinyCa ca, Runnable detach) {
    this.run = keptRun;
    this.ca = ca;
    try {
      connected(url, java.nio.file.Files.readString(kubeconfig), kubeconfig);
    } catch (java.io.IOException e) {
      throw new KubeHarnessException("Cannot read the kept control plane's " + kubeconfig, e);
    }
    this.detach = detach;
  }

  /**
   * The control plane this JVM started now belongs to its keeper: its processes are no longer
   * stopped with this JVM, and {@code detach} is run on stop.
   */
  public final void handedOver(Runnable detach) {
    started.clear();
    this.detach = detach;
  }

  /** The current run directory. */
  public final RunDirectory run() {
    return run;
  }

  /** Registers a started part, to be closed in reverse order on stop or failed start. */
  public final <T extends AutoCloseable> T started(T part) {
    started.push(part);
    return part;
  }

  /** Forgets a part that was stopped on purpose (to be started anew). */
  final void forget(AutoCloseable part) {
    started.remove(part);
  }

  /** Closes every started part, newest first, collecting failures into {@code collector}. */
  public final void stopStarted(RuntimeException collector) {
    while (!started.isEmpty()) {
      try {
        started.pop().close();
      } catch (Exception e) {
        collector.addSuppressed(e);
      }
    }
  }

  /**
   * The API server answers: issues the admin kubeconfig from {@code ca} (the backends whose CA
   * kube-harness holds) and writes it into the run directory.
   */
  public final void connected(String url, TinyCa ca) {
    this.ca = ca;
    connected(url, kubeconfigFor(url, "kube-harness-admin", List.of("system:masters")), null);
  }

  /** The API server answers at {@code url}; {@code file} holds {@code kubeconfig}, or null. */
  final void connected(String url, String kubeconfig, Path file) {
    this.apiServerUrl = url.replaceFirst("/+$", "");
    this.kubeconfig = kubeconfig;
    this.kubeconfigFile =
        file != null ? file : PrivateFiles.write(run.path().resolve("kubeconfig"), kubeconfig);
  }

  /** The CA this run's identities are issued from; null where kube-harness holds none. */
  public final TinyCa ca() {
    return ca;
  }

  // The CA is held exactly where kube-harness started kube-apiserver with its Pki, whose
  // admission configuration presents the webhook client certificate.
  @Override
  public final Optional<X509Certificate> webhookClientCa() {
    return Optional.ofNullable(ca).map(TinyCa::certificate);
  }

  /** A kubeconfig for {@code user} in {@code groups}, signed by this run's CA. */
  public final String kubeconfigFor(String server, String user, List<String> groups) {
    return new Identities(ca).kubeconfig(server, user, groups);
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public Backend backend() {
    return backend;
  }

  @Override
  public Profile profile() {
    return options.profile();
  }

  @Override
  public synchronized String kubernetesVersion() {
    if (serverVersion == null) {
      serverVersion = admin().getKubernetesVersion().getGitVersion().replaceFirst("^v", "");
    }
    return serverVersion;
  }

  @Override
  public String apiServerUrl() {
    return requireStarted("apiServerUrl", apiServerUrl);
  }

  @Override
  public String kubeconfig() {
    return requireStarted("kubeconfig", kubeconfig);
  }

  @Override
  public Path kubeconfigFile() {
    return requireStarted("kubeconfigFile", kubeconfigFile);
  }

  /** A cluster-admin client with the kubeconfig's TLS made in memory ({@link Clients}). */
  @Override
  public KubernetesClient newClient() {
    return Clients.create(clientConfig());
  }

  @Override
  public Optional<Path> auditLogFile() {
    return Optional.empty();
  }

  @Override
  public Optional<Path> logDirectory() {
    return running && run != null ? Optional.of(run.path()) : Optional.empty();
  }

  @Override
  public synchronized KubeUser addUser(String name, List<String> groups) {
    requireStarted("addUser", kubeconfig);
    if (ca == null) {
      throw new UnsupportedOperationException(
          "addUser needs the cluster's CA key, which kube-harness holds only on the local and"
              + " container backends, not on "
              + backend.settingValue()
              + ". Test RBAC with ServiceAccounts here (@ControllerTest(rbac = ...) or"
              + " serviceAccountKubeconfig).");
    }
    return new Identities(ca).user(apiServerUrl, name, groups, run.subdirectory("users"));
  }

  @Override
  public synchronized String serviceAccountKubeconfig(String namespace, String name) {
    Config config = admin().getConfiguration();
    return Kubeconfig.forToken(
        apiServerUrl(),
        Kubeconfig.caData(config),
        Identities.serviceAccountToken(admin(), namespace, name));
  }

  @Override
  public synchronized int installCrds(List<String> crdPaths, List<Class<?>> crdClasses) {
    return installCrdDocuments(CrdInstaller.documents(crdPaths, crdClasses));
  }

  @Override
  public synchronized int installCrdDocuments(List<ManifestFiles.Document> documents) {
    int changed = crdInstaller().install(documents);
    if (changed > 0) {
      newResourceTypesInstalled();
    }
    return changed;
  }

  @Override
  public synchronized int apply(List<String> manifests) {
    ManifestApplier.Applied applied =
        ManifestApplier.apply(admin(), crdInstaller(), manifests, options.progress());
    if (applied.changedCrds() > 0) {
      newResourceTypesInstalled();
    }
    return applied.objects();
  }

  private KubernetesClient admin() {
    requireStarted("a cluster operation", kubeconfig);
    if (admin == null) {
      admin = newClient();
    }
    return admin;
  }

  // One installer per control plane: it remembers what it applied, for every caller alike.
  private CrdInstaller crdInstaller() {
    if (crds == null) {
      crds = new CrdInstaller(admin());
    }
    return crds;
  }

  private <T> T requireStarted(String what, T value) {
    if (value == null) {
      throw new IllegalStateException(
          what + "() needs a running control plane: call start() first");
    }
    return value;
  }
}
