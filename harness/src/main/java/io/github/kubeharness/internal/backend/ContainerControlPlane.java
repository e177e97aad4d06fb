package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.controlplane.EtcdTls;
import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.controlplane.ReadinessProbes;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.Waits;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;

/**
 * The {@code container} backend: etcd, kube-apiserver (and, in {@code standard}, the controller
 * manager) as Testcontainers from the upstream images, with the same certificates, identities,
 * flags and readiness rule as the local backend. In {@link NetworkMode#BRIDGE} the containers share
 * a Docker network and the apiserver's and etcd's ports are published on the host's 127.0.0.1 only
 * ({@link LoopbackPorts}); in {@link NetworkMode#HOST} they use the host's network and bind
 * 127.0.0.1 on free ports, like local processes. etcd asks for its client certificate in both.
 */
final class ContainerControlPlane extends AbstractControlPlane {

  private static final int ETCD_PORT = 2379;
  private static final int API_PORT = 6443;
  private static final String ETCD_PKI = "/etcd-pki/";

  private final BackendOptions.Container images;
  private final boolean host;
  private ContainerComponent controllerManager;
  private Pki pki;
  private Network network;
  private String url;
  private ReadinessProbes.ApiServerProbes apiServerProbes;

  ContainerControlPlane(ControlPlaneOptions options, BackendOptions.Container container) {
    super(options, Backend.CONTAINER);
    this.images = container;
    this.host = container.network() == NetworkMode.HOST;
  }

  @Override
  void startComponents() {
    String docker = DockerCheck.problem();
    if (docker != null) {
      throw BackendUnavailable.error(
          "The container backend", "Docker is not reachable: " + docker, null);
    }
    RunDirectory run = newRunDirectory();
    long deadline = Waits.deadline(options.startTimeout());
    String version = options.kubernetesVersion();
    String dockerHost = DockerClientFactory.instance().dockerHostIpAddress();
    TinyCa ca = TinyCa.create("kube-harness-ca");
    if (!host) {
      network = started(Network.newNetwork());
    }

    int etcdPort = host ? FreePorts.next() : ETCD_PORT;
    int peerPort = host ? FreePorts.next() : 2380;
    // In bridge mode etcd listens on the containers' network, where the apiserver reaches it as
    // `etcd`; there, as on the host, only the run's etcd client certificate gets in.
    String listen = host ? "127.0.0.1" : "0.0.0.0";
    EtcdTls etcdTls = EtcdTls.create();
    ContainerComponent etcd =
        component(
                "etcd",
                ContainerImages.etcd(version, images),
                "/usr/local/bin/etcd",
                "etcd",
                ETCD_PORT)
            .command(
                Etcd.flags(
                    "/var/lib/etcd/data",
                    "https://" + listen + ":" + etcdPort,
                    "https://127.0.0.1:" + etcdPort,
                    listen,
                    peerPort,
                    ETCD_PKI))
            .tmpfs("/var/lib/etcd");
    etcdTls.serverFiles().forEach((name, content) -> etcd.file(ETCD_PKI + name, content));
    etcd.start(
        deadline,
        ReadinessProbes.etcd(() -> "https://" + hostAddress(etcd, etcdPort, ETCD_PORT), etcdTls));

    pki = Pki.create(ca, host ? List.of() : List.of(dockerHost, "apiserver"), etcdTls);
    int apiPort = host ? FreePorts.next() : API_PORT;
    ContainerComponent apiServer =
        component(
                "kube-apiserver",
                ContainerImages.apiServer(version, images),
                "/usr/local/bin/kube-apiserver",
                "apiserver",
                API_PORT)
            .command(
                ApiServer.flags(
                    "/pki",
                    host ? "https://127.0.0.1:" + etcdPort : "https://etcd:" + ETCD_PORT,
                    listen,
                    apiPort,
                    options.auditLog() ? "/audit/audit.log" : null,
                    options.profile(),
                    options.extraApiServerFlags()))
            .tmpfs("/var/run/kubernetes");
    pki.apiServerFiles("/pki").forEach((name, content) -> apiServer.file("/pki/" + name, content));
    if (options.auditLog()) {
      apiServer.bind(run.subdirectory("audit"), "/audit");
    }
    apiServerProbes = null;
    apiServer.start(deadline, () -> apiServerReady(apiServer, apiPort, ca));
    connected(url, ca);
    try (KubernetesClient client = newClient()) {
      SystemObjects.awaitDefaultNamespace(client, deadline);
      if (options.profile().runs(Profile.Component.KUBE_CONTROLLER_MANAGER)) {
        startControllerManager(deadline);
        SystemObjects.awaitDefaultServiceAccount(client, deadline);
      }
    }
  }

  // The apiserver's address is known once its container runs: its probes are made then, once.
  private boolean apiServerReady(ContainerComponent apiServer, int apiPort, TinyCa ca)
      throws Exception {
    if (apiServerProbes == null) {
      url = "https://" + hostAddress(apiServer, apiPort, API_PORT);
      apiServerProbes = ReadinessProbes.apiServer(url, ca);
    }
    return apiServerProbes.readyz(List.of()).isReady();
  }

  private void startControllerManager(long deadline) {
    String inner = host ? url : "https://apiserver:" + API_PORT;
    int port = host ? FreePorts.next() : 10257;
    ContainerComponent kcm =
        component(
                "kube-controller-manager",
                ContainerImages.controllerManager(options.kubernetesVersion(), images),
                "/usr/local/bin/kube-controller-manager",
                "controller-manager",
                null)
            .command(
                ControllerManager.flags(
                    "/etc/kubernetes/kubeconfig",
                    "/pki",
                    host ? "127.0.0.1" : "0.0.0.0",
                    port,
                    Profile.STANDARD))
            .file(
                "/etc/kubernetes/kubeconfig",
                kubeconfigFor(inner, "system:kube-controller-manager", List.of("system:masters")));
    pki.files().forEach((name, content) -> kcm.file("/pki/" + name, content));
    // Its readiness is proven by its work: the default ServiceAccount the caller waits for.
    kcm.start(deadline, () -> true);
    controllerManager = kcm;
  }

  /** A new controller-manager container, so that its garbage collector knows the new types. */
  @Override
  synchronized void newResourceTypesInstalled() {
    if (controllerManager == null) {
      return;
    }
    forget(controllerManager);
    controllerManager.close();
    startControllerManager(Waits.deadline(options.startTimeout()));
  }

  private ContainerComponent component(
      String name, String image, String entrypoint, String alias, Integer port) {
    ContainerComponent c =
        started(new ContainerComponent(name, image, entrypoint, options.offline()));
    if (host) {
      c.container().withNetworkMode("host");
    } else {
      c.container().withNetwork(network).withNetworkAliases(alias);
      if (port != null) {
        LoopbackPorts.publishOnLoopback(c.container().withExposedPorts(port));
      }
    }
    return c;
  }

  private String hostAddress(ContainerComponent c, int hostPort, int containerPort) {
    return host ? "127.0.0.1:" + hostPort : LoopbackPorts.address(c.container(), containerPort);
  }

  @Override
  public Optional<Path> auditLogFile() {
    return isRunning() && options.auditLog()
        ? logDirectory().map(run -> run.resolve("audit").resolve("audit.log"))
        : Optional.empty();
  }
}
