package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Settings;
import io.github.kubeharness.internal.backend.KindCli.Result;
import io.github.kubeharness.internal.client.Clients;
import io.github.kubeharness.internal.process.PrivateFiles;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.Waits;
import io.github.kubeharness.internal.process.Watchdog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The {@code kind} backend: a kind cluster whose kubelet runs pods for real, from kube-harness's
 * node image ({@code kube-harness/kind-node:v<version>}, {@code make kind-image}) where it exists,
 * else from upstream's {@code kindest/node:v<version>}. One cluster per start; with {@link
 * ControlPlaneOptions#reuse()} the cluster outlives the JVM and the next start attaches to it after
 * a health check.
 *
 * <p>The node sits on the Docker network {@value #NETWORK} ({@value #SUBNET}, created here, no
 * masquerading); the API server is published on 127.0.0.1. With our node image CoreDNS answers
 * cluster names only, so nothing from the cluster leaves the machine.
 */
final class KindControlPlane extends AbstractControlPlane {

  static final String NETWORK = "kube-harness-kind";
  static final String SUBNET = "172.30.0.0/24";

  /** The label our node image carries (its inputs' hash); upstream images do not. */
  static final String OUR_IMAGE_LABEL = "io.github.kubeharness.inputs";

  private static final AtomicInteger CLUSTERS = new AtomicInteger();
  private static final Duration DOCKER_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration MIN_CREATE_WAIT = Duration.ofMinutes(3);

  private KindCli kind;
  private String clusterName;
  private String nodeImage;

  private final BackendOptions.Kind kindOptions;

  KindControlPlane(ControlPlaneOptions options, BackendOptions.Kind kind) {
    super(options, Backend.KIND);
    this.kindOptions = kind;
  }

  @Override
  void startComponents() {
    requireDocker();
    String image =
        image(options.kubernetesVersion(), kindOptions, name -> ourLabel(name).isPresent());
    nodeImage = image;
    // One look at the image: whether it is here, and whether it is ours (it carries the label).
    Optional<String> label = ourLabel(image);
    if (options.offline() && label.isEmpty()) {
      // kind would try to pull it, and an offline run sends nothing off the machine.
      throw new KubeHarnessException(
          "The kind node image "
              + image
              + " is not in the local Docker, and "
              + Settings.OFFLINE
              + " forbids pulling it. Build kube-harness's own with `make kind-image` (it becomes"
              + " the default for this Kubernetes version), load one (docker load), or name"
              + " another with -D"
              + Settings.KIND_IMAGE
              + "=<image>.");
    }
    kind = KindCli.find(options);
    boolean ours = label.filter(value -> !value.isEmpty()).isPresent();
    boolean reuse = options.reuse();
    clusterName = clusterName(image, reuse);
    RunDirectory run = newRunDirectory();
    if (reuse && kind.clusters().contains(clusterName) && attach()) {
      return;
    }
    ensureNetwork();
    Path config = writeConfig(run.path(), ours);
    Path kubeconfigFile = run.path().resolve("kubeconfig");
    String node = clusterName + "-control-plane";
    if (!reuse) {
      // Gone with the JVM, even on kill -9: the watchdog removes the node container and its
      // volume; a normal stop deletes the cluster through kind.
      Watchdog.get().watchContainer(node);
      String name = clusterName;
      started(
          () -> {
            kind.delete(name);
            Watchdog.get().unwatchContainer(node);
          });
    }
    options
        .progress()
        .accept(
            "creating kind cluster "
                + clusterName
                + " from "
                + image
                + (reuse ? " (kept for the next run: " + Settings.REUSE + "=true)" : "")
                + " ...");
    Instant started = Instant.now();
    // A node boots in tens of seconds: kind may wait the start timeout, but never less than 3 min.
    Duration wait =
        options.startTimeout().compareTo(MIN_CREATE_WAIT) > 0
            ? options.startTimeout()
            : MIN_CREATE_WAIT;
    Result created = kind.create(clusterName, image, config, kubeconfigFile, NETWORK, wait);
    if (!created.succeeded()) {
      throw createFailed(image, created, node);
    }
    String kubeconfig = read(kubeconfigFile);
    connected(Config.fromKubeconfig(kubeconfig).getMasterUrl(), kubeconfig, kubeconfigFile);
    finishSetUp(ours);
    options
        .progress()
        .accept(
            "kind cluster "
                + clusterName
                + " ready in "
                + Duration.between(started, Instant.now()).toSeconds()
                + " s");
  }

  @Override
  public void loadImage(String... images) {
    if (!isRunning()) {
      throw new IllegalStateException("loadImage needs a started control plane: call start()");
    }
    kind.loadImages(clusterName, List.of(images));
  }

  /** The node image this cluster runs (set once started). */
  String nodeImage() {
    return nodeImage;
  }

  /**
   * The node image: the option, else ours for this version where it exists locally, else
   * upstream's.
   */
  static String image(
      String kubernetesVersion, BackendOptions.Kind kind, Predicate<String> exists) {
    return kind.image()
        .orElseGet(
            () -> {
              String ours = "kube-harness/kind-node:v" + kubernetesVersion;
              return exists.test(ours) ? ours : "kindest/node:v" + kubernetesVersion;
            });
  }

  /**
   * Reused clusters are named by their image, so a JVM finds the one it left; others by JVM and
   * count, so parallel JVMs and configurations never collide.
   */
  static String clusterName(String image, boolean reuse) {
    return reuse
        ? "kube-harness-reuse-" + Integer.toHexString(image.hashCode())
        : "kube-harness-" + ProcessHandle.current().pid() + "-" + CLUSTERS.incrementAndGet();
  }

  /**
   * {@value #OUR_IMAGE_LABEL} of a local {@code image}: empty when the image is not here, blank
   * when it is there without the label (an upstream image).
   */
  private static Optional<String> ourLabel(String image) {
    Result inspected =
        KindCli.docker(
            List.of(
                "image",
                "inspect",
                "-f",
                "{{ index .Config.Labels \"" + OUR_IMAGE_LABEL + "\" }}",
                image),
            DOCKER_TIMEOUT);
    if (!inspected.succeeded()) {
      return Optional.empty();
    }
    String value = inspected.output().strip();
    return Optional.of(value.equals("<no value>") ? "" : value);
  }

  private boolean attach() {
    String kubeconfig = kind.kubeconfig(clusterName);
    Config config = Config.fromKubeconfig(kubeconfig);
    try (KubernetesClient client = Clients.create(config)) {
      String ready = client.raw("/readyz");
      if (!"ok".equals(ready == null ? null : ready.strip())) {
        throw new KubeHarnessException("/readyz answered " + ready);
      }
    } catch (RuntimeException e) {
      options
          .progress()
          .accept(
              "kind cluster "
                  + clusterName
                  + " does not answer ("
                  + e.getMessage()
                  + "); deleting it and creating it anew");
      kind.delete(clusterName);
      return false;
    }
    connected(config.getMasterUrl(), kubeconfig, null);
    options.progress().accept("attached to kind cluster " + clusterName + " (reused)");
    return true;
  }

  private void requireDocker() {
    // The socket's own answer first: `docker info` words a missing engine and a refused socket
    // alike.
    DockerSocket.problem()
        .ifPresent(
            problem -> {
              throw BackendUnavailable.error(
                  "The kind backend", "Docker is not reachable: " + problem, null);
            });
    Result info = KindCli.docker(List.of("info", "--format", "{{.ServerVersion}}"), DOCKER_TIMEOUT);
    if (!info.succeeded()) {
      throw BackendUnavailable.error(
          "The kind backend",
          "Docker is not reachable (`docker info`: " + info.output().strip() + ")",
          null);
    }
  }

  private static void ensureNetwork() {
    if (KindCli.docker(List.of("network", "inspect", NETWORK), DOCKER_TIMEOUT).succeeded()) {
      return;
    }
    Result created =
        KindCli.docker(
            List.of(
                "network",
                "create",
                "--driver",
                "bridge",
                "--subnet",
                SUBNET,
                "-o",
                "com.docker.network.bridge.enable_ip_masquerade=false",
                NETWORK),
            DOCKER_TIMEOUT);
    // A parallel JVM may have created it in between.
    if (!created.succeeded()
        && !KindCli.docker(List.of("network", "inspect", NETWORK), DOCKER_TIMEOUT).succeeded()) {
      throw new KubeHarnessException(
          "Cannot create the Docker network "
              + NETWORK
              + " ("
              + SUBNET
              + ") for kind: "
              + created.output().strip()
              + "\nIf the subnet clashes with one of this machine's networks, remove the"
              + " clashing Docker network or free the range.");
    }
  }

  private static Path writeConfig(Path dir, boolean ours) {
    String resource = ours ? "kind/kube-harness-node.yaml" : "kind/upstream-node.yaml";
    return PrivateFiles.write(dir.resolve("kind-config.yaml"), BundledResources.text(resource));
  }

  /**
   * After {@code kind create}: CoreDNS stops forwarding off the machine (our image), and the {@code
   * default} ServiceAccount exists (kind returns before it does; pods need it).
   */
  private void finishSetUp(boolean ours) {
    long deadline = Waits.deadline(options.startTimeout());
    try (KubernetesClient client = newClient()) {
      if (ours) {
        // kind can return while its API server still drops connections (a TLS handshake closed
        // right after create, seen in CI): an error here is "not yet", as in every other wait.
        Waits.until(
            "kind cluster " + clusterName + "'s DNS to answer from the cluster alone",
            deadline,
            () -> {
              answerDnsLocally(client);
              return true;
            });
      }
      Waits.until(
          "the default ServiceAccount of kind cluster " + clusterName,
          deadline,
          () -> client.serviceAccounts().inNamespace("default").withName("default").get() != null);
    }
  }

  /** CoreDNS without its upstream forwarder (and loop check): nothing leaves the machine. */
  private static void answerDnsLocally(KubernetesClient client) {
    ConfigMap coredns = client.configMaps().inNamespace("kube-system").withName("coredns").get();
    if (coredns != null && coredns.getData() != null) {
      String corefile = coredns.getData().getOrDefault("Corefile", "");
      String local =
          corefile.replaceAll("\\n *forward [^{]*\\{[^}]*}", "").replaceAll("\\n *loop\\n", "\n");
      if (!local.equals(corefile)) {
        coredns.getData().put("Corefile", local);
        client.resource(coredns).update();
      }
    }
  }

  private KubeHarnessException createFailed(String image, Result created, String node) {
    String output = created.output().strip();
    String hint;
    if (output.contains("unable to apply caps")) {
      hint =
          "Docker cannot start kind's privileged node on this machine: root lacks a capability"
              + " Docker asks for. Run kube-harness's hack/kind/docker-runtime.sh as root once (a"
              + " runc wrapper as dockerd's default runtime; docs/kind.md).";
    } else if (output.contains("pull") || output.contains("No such image")) {
      hint =
          "The node image "
              + image
              + " is neither in the local Docker nor pullable. Build kube-harness's own with"
              + " `make kind-image`, pull one (docker pull kindest/node:v...), or name another"
              + " with -D"
              + Settings.KIND_IMAGE
              + "=<image>.";
    } else {
      hint =
          "The node's last kubelet and containerd log lines:\n"
              + KindCli.docker(
                      List.of(
                          "exec",
                          node,
                          "journalctl",
                          "-u",
                          "kubelet",
                          "-u",
                          "containerd",
                          "--no-pager",
                          "-n",
                          "30"),
                      DOCKER_TIMEOUT)
                  .output()
                  .strip();
    }
    try {
      kind.delete(clusterName);
    } catch (RuntimeException ignored) {
      // the watchdog or the next start removes it
    }
    return new KubeHarnessException(
        "kind cluster "
            + clusterName
            + " ("
            + image
            + ") was not created: "
            + tail(output, 15)
            + "\n"
            + hint);
  }

  private static String tail(String text, int lines) {
    List<String> all = text.lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new KubeHarnessException("kind wrote no kubeconfig at " + file + ": " + e, e);
    }
  }
}
