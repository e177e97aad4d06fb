package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.KubeUser;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.controlplane.ApiServerFlags;
import io.github.kubeharness.internal.controlplane.ControllerManager;
import io.github.kubeharness.internal.controlplane.ControllerManagerRestart;
import io.github.kubeharness.internal.controlplane.Identities;
import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.controlplane.ReadinessProbes;
import io.github.kubeharness.internal.controlplane.SystemObjects;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.ShutdownHooks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

/**
 * The {@code container} backend: etcd, kube-apiserver (and, in {@code standard}, the controller
 * manager) as Testcontainers from the upstream images, with the same certificates, identities,
 * flags and readiness rule as the local backend. In {@link NetworkMode#BRIDGE} the containers share
 * a Docker network and the apiserver's port is mapped to the host; in {@link NetworkMode#HOST} they
 * use the host's network and bind 127.0.0.1 on free ports, like local processes.
 */
final class ContainerControlPlane implements ControlPlane, ControllerManagerRestart {

  private static final int ETCD_PORT = 2379;
  private static final int API_PORT = 6443;

  private final ControlPlaneOptions options;
  private final boolean host;
  private final List<ContainerComponent> components = new ArrayList<>();
  private ContainerComponent controllerManager;
  private Pki pki;
  private int apiPort;
  private RunDirectory run;
  private Network network;
  private TinyCa ca;
  private String url;
  private String kubeconfig;
  private Path kubeconfigFile;
  private volatile boolean running;

  ContainerControlPlane(ControlPlaneOptions options) {
    this.options = options;
    this.host = options.network() == NetworkMode.HOST;
  }

  @Override
  public synchronized void start() {
    if (running) {
      return;
    }
    String docker = DockerCheck.problem();
    if (docker != null) {
      throw Backends.unavailable(
          "The container backend", "Docker is not reachable (" + docker + ")", null);
    }
    run = RunDirectory.create(RunDirectory.defaultRoot());
    try {
      startComponents();
    } catch (RuntimeException e) {
      stopComponents(e);
      throw e;
    }
    running = true;
    ShutdownHooks.register(this);
  }

  private void startComponents() {
    long deadline = System.nanoTime() + options.startTimeout().toNanos();
    String version = options.kubernetesVersion();
    String dockerHost = DockerClientFactory.instance().dockerHostIpAddress();
    ca = TinyCa.create("kube-harness-ca");
    pki = Pki.create(ca, host ? List.of() : List.of(dockerHost, "apiserver"));
    if (!host) {
      network = Network.newNetwork();
    }

    int etcdPort = host ? FreePorts.next() : ETCD_PORT;
    int peerPort = host ? FreePorts.next() : 2380;
    String listen = host ? "127.0.0.1" : "0.0.0.0";
    ContainerComponent etcd =
        component("etcd", ContainerImages.etcd(version), "/usr/local/bin/etcd", "etcd", ETCD_PORT)
            .command(
                "--name=kube-harness",
                "--data-dir=/var/lib/etcd/data",
                "--listen-client-urls=http://" + listen + ":" + etcdPort,
                "--advertise-client-urls=http://127.0.0.1:" + etcdPort,
                "--listen-peer-urls=http://" + listen + ":" + peerPort,
                "--initial-advertise-peer-urls=http://127.0.0.1:" + peerPort,
                "--initial-cluster=kube-harness=http://127.0.0.1:" + peerPort,
                "--unsafe-no-fsync=true",
                "--heartbeat-interval=10",
                "--election-timeout=50",
                "--watch-progress-notify-interval=100ms",
                "--log-level=warn")
            .tmpfs("/var/lib/etcd");
    etcd.start(
        deadline,
        () -> ReadinessProbes.etcd("http://" + hostAddress(etcd, etcdPort, ETCD_PORT)).isReady());

    apiPort = host ? FreePorts.next() : API_PORT;
    List<String> extra = new ArrayList<>();
    if (options.profile() == Profile.MINIMAL) {
      extra.add("--disable-admission-plugins=ServiceAccount");
    }
    extra.addAll(options.extraApiServerFlags());
    ContainerComponent apiServer =
        component(
                "kube-apiserver",
                ContainerImages.apiServer(version),
                "/usr/local/bin/kube-apiserver",
                "apiserver",
                API_PORT)
            .command(
                ApiServerFlags.of(
                    "/pki",
                    host ? "http://127.0.0.1:" + etcdPort : "http://etcd:" + ETCD_PORT,
                    listen,
                    apiPort,
                    options.auditLog() ? "/audit/audit.log" : null,
                    extra))
            .tmpfs("/var/run/kubernetes");
    pki.files().forEach((name, content) -> apiServer.file("/pki/" + name, content));
    if (options.auditLog()) {
      apiServer.bind(run.subdirectory("audit"), "/audit");
    }
    apiServer.start(
        deadline,
        () -> {
          url = "https://" + hostAddress(apiServer, apiPort, API_PORT);
          return ReadinessProbes.apiServer(url, ca).isReady();
        });
    kubeconfig = kubeconfigFor(url, "kube-harness-admin", List.of("system:masters"));
    kubeconfigFile = Identities.write(run.path().resolve("kubeconfig"), kubeconfig);
    try (KubernetesClient client = newClient()) {
      SystemObjects.awaitDefaultNamespace(client, deadline);
      if (options.profile() == Profile.STANDARD) {
        startControllerManager(pki, apiPort, deadline);
        SystemObjects.awaitDefaultServiceAccount(client, deadline);
      }
    }
  }

  private void startControllerManager(Pki pki, int apiPort, long deadline) {
    String inner = host ? url : "https://apiserver:" + API_PORT;
    int port = host ? FreePorts.next() : 10257;
    ContainerComponent kcm =
        component(
                "kube-controller-manager",
                ContainerImages.controllerManager(options.kubernetesVersion()),
                "/usr/local/bin/kube-controller-manager",
                "controller-manager",
                null)
            .command(
                ControllerManager.flags(
                    "/etc/kubernetes/kubeconfig",
                    "/pki",
                    host ? "127.0.0.1" : "0.0.0.0",
                    port,
                    "/var/run/kubernetes"))
            .tmpfs("/var/run/kubernetes")
            .file(
                "/etc/kubernetes/kubeconfig",
                kubeconfigFor(inner, "system:kube-controller-manager", List.of("system:masters")));
    pki.files().forEach((name, content) -> kcm.file("/pki/" + name, content));
    // Its readiness is proven by its work: the default ServiceAccount the caller waits for.
    kcm.start(deadline, () -> true);
    controllerManager = kcm;
  }

  @Override
  public synchronized void restartControllerManager() {
    if (controllerManager == null) {
      return;
    }
    controllerManager.stop();
    components.remove(controllerManager);
    startControllerManager(pki, apiPort, System.nanoTime() + options.startTimeout().toNanos());
  }

  private ContainerComponent component(
      String name, String image, String entrypoint, String alias, Integer port) {
    ContainerComponent c = new ContainerComponent(name, image, entrypoint);
    if (host) {
      c.container().withNetworkMode("host");
    } else {
      c.container().withNetwork(network).withNetworkAliases(alias);
      if (port != null) {
        c.container().withExposedPorts(port);
      }
    }
    components.add(c);
    return c;
  }

  private String hostAddress(ContainerComponent c, int hostPort, int containerPort) {
    GenericContainer<?> container = c.container();
    return host
        ? "127.0.0.1:" + hostPort
        : container.getHost() + ":" + container.getMappedPort(containerPort);
  }

  private String kubeconfigFor(String server, String user, List<String> groups) {
    return new Identities(ca).kubeconfig(server, user, groups);
  }

  @Override
  public synchronized void stop() {
    if (run == null) {
      return;
    }
    RuntimeException failure = new KubeHarnessException("Stopping the containers failed");
    stopComponents(failure);
    run.close();
    run = null;
    running = false;
    ShutdownHooks.unregister(this);
    if (failure.getSuppressed().length > 0) {
      throw failure;
    }
  }

  private void stopComponents(RuntimeException collector) {
    for (int i = components.size() - 1; i >= 0; i--) {
      try {
        components.get(i).stop();
      } catch (RuntimeException e) {
        collector.addSuppressed(e);
      }
    }
    components.clear();
    if (network != null) {
      try {
        network.close();
      } catch (RuntimeException e) {
        collector.addSuppressed(e);
      }
      network = null;
    }
  }

  @Override
  public synchronized KubeUser addUser(String name, List<String> groups) {
    if (!running) {
      throw new IllegalStateException(
          "addUser() needs a started control plane: call start() first");
    }
    return new Identities(ca).user(url, name, groups, run.subdirectory("users"));
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
    return url;
  }

  @Override
  public String kubeconfig() {
    return kubeconfig;
  }

  @Override
  public Path kubeconfigFile() {
    return kubeconfigFile;
  }

  @Override
  public Optional<Path> auditLogFile() {
    return running && options.auditLog()
        ? Optional.of(run.path().resolve("audit").resolve("audit.log"))
        : Optional.empty();
  }
}
