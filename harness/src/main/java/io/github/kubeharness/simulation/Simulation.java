package io.github.kubeharness.simulation;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import io.fabric8.kubernetes.client.dsl.Listable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Steers the {@link Profile#SIMULATED simulated} profile's workloads, so a test can walk an
 * operator's degraded paths: pods that turn unready, crash or fail, nodes that come, go or are
 * cordoned. Injected into {@code @ControllerTest} fields and parameters of this type; on a plain
 * {@link ControlPlane}, {@code new Simulation(controlPlane, client)}.
 *
 * <pre>{@code
 * simulation.pods(client.pods().withLabel("app", "web")).makeUnready(); // ready count drops
 * simulation.pods(client.pods().withLabel("app", "web")).makeReady();   // and comes back
 * simulation.cordon("simulated-node-1");
 * }</pre>
 *
 * <p>Pods are steered by the annotation {@value #ANNOTATION} (values {@value #UNREADY}, {@value
 * #CRASH}, {@value #FAIL}), which KWOK's stages act on within milliseconds: set it in a pod
 * template to have every pod of a workload start that way (a Job whose pods fail, say).
 */
public final class Simulation {

  /** The pod annotation KWOK's stages read; absent means "run and become ready". */
  public static final String ANNOTATION = "kube-harness.io/simulate";

  /** Running, containers running but not ready (as a failing readiness probe leaves them). */
  public static final String UNREADY = "unready";

  /** Not ready, each container restarted once more and waiting in {@code CrashLoopBackOff}. */
  public static final String CRASH = "crash";

  /** {@code Failed}: containers exited with code 1 (a Job counts a failed pod). */
  public static final String FAIL = "fail";

  /** The label (value {@code true}) that puts a node under KWOK. */
  public static final String NODE_LABEL = "kube-harness.io/simulated-node";

  private static final Duration NODE_READY = Duration.ofSeconds(30);
  private static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";

  private final ControlPlane controlPlane;
  private final KubernetesClient client;

  /** Steers {@code controlPlane}'s simulation through {@code client} (which may edit nodes). */
  public Simulation(ControlPlane controlPlane, KubernetesClient client) {
    this.controlPlane = Objects.requireNonNull(controlPlane, "controlPlane");
    this.client = Objects.requireNonNull(client, "client");
  }

  /** The pods {@code pods} lists, e.g. {@code client.pods().withLabel("app", "web")}. */
  public Pods pods(Listable<PodList> pods) {
    return new Pods(() -> pods.list().getItems());
  }

  /** One pod, e.g. {@code client.pods().withName("web-0")}. */
  public Pods pod(Resource<Pod> pod) {
    return new Pods(() -> List.of(pod.require()));
  }

  /** The storage of the simulation: its provisioner, and provisioning failures to inject. */
  public StorageSimulation storage() {
    return new StorageSimulation(controlPlane, client);
  }

  /** The fake nodes KWOK runs, by name. */
  public List<String> nodes() {
    requireSimulated();
    return client.nodes().withLabel(NODE_LABEL, "true").list().getItems().stream()
        .map(n -> n.getMetadata().getName())
        .sorted()
        .toList();
  }

  /**
   * Adds a fake node, as a kubelet registers itself, and waits until KWOK made it Ready and it
   * takes pods. The API server taints every new node {@code node.kubernetes.io/not-ready}; the node
   * lifecycle controller, which is not run here (KWOK's nodes send no heartbeats), would lift that
   * taint once the node is Ready, so this does.
   */
  public Node addNode(String name) {
    requireSimulated();
    client.resource(node(name)).create();
    try {
      client
          .nodes()
          .withName(name)
          .waitUntilCondition(Simulation::ready, NODE_READY.toSeconds(), TimeUnit.SECONDS);
    } catch (KubernetesClientTimeoutException e) {
      throw new KubeHarnessException(
          "KWOK did not make node "
              + name
              + " Ready within "
              + NODE_READY.toSeconds()
              + " s. Its log is kwok.log in "
              + controlPlane.logDirectory().map(Object::toString).orElse("the run directory")
              + ".",
          e);
    }
    return client
        .nodes()
        .withName(name)
        .edit(
            n -> {
              if (n.getSpec().getTaints() != null) {
                n.getSpec().getTaints().removeIf(t -> NOT_READY_TAINT.equals(t.getKey()));
              }
              return n;
            });
  }

  /** Deletes a node; the pod garbage collector then deletes its pods, as after a node loss. */
  public void removeNode(String name) {
    requireSimulated();
    client.nodes().withName(name).withTimeout(30, TimeUnit.SECONDS).delete();
  }

  /** Marks a node unschedulable ({@code kubectl cordon}): its pods stay, new ones go elsewhere. */
  public void cordon(String name) {
    setUnschedulable(name, true);
  }

  /** Makes a cordoned node schedulable again ({@code kubectl uncordon}). */
  public void uncordon(String name) {
    setUnschedulable(name, false);
  }

  private void setUnschedulable(String name, boolean unschedulable) {
    requireSimulated();
    client
        .nodes()
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"unschedulable\":" + unschedulable + "}}");
  }

  /** The Node object of a fake node, as a kubelet would register it. */
  private static Node node(String name) {
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels(NODE_LABEL, "true")
        .addToLabels("kubernetes.io/hostname", name)
        .addToLabels("kubernetes.io/os", "linux")
        .addToLabels("kubernetes.io/arch", "amd64")
        .addToLabels("type", "kwok")
        .endMetadata()
        .build();
  }

  private static boolean ready(Node node) {
    return node != null
        && node.getStatus() != null
        && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private void requireSimulated() {
    if (controlPlane.profile() != Profile.SIMULATED) {
      throw new IllegalStateException(
          "Simulation steers the simulated profile's KWOK nodes and pods, but this control plane"
              + " runs the "
              + controlPlane.profile().settingValue()
              + " profile on the "
              + controlPlane.backend().settingValue()
              + " backend. The simulated profile runs on the local backend:"
              + " @ControllerTest(profile = \"simulated\") (or -Dkubeharness.profile=simulated),"
              + " with backend local or auto.");
    }
  }

  /** Some pods, to be put into one simulated state. Each call returns the pods it changed. */
  public final class Pods {

    private final Supplier<List<Pod>> pods;

    private Pods(Supplier<List<Pod>> pods) {
      this.pods = pods;
    }

    /** Containers keep running but turn unready; the owner's ready count drops. */
    public List<Pod> makeUnready() {
      return annotate(UNREADY);
    }

    /** Back to running and ready (restart counts kept). */
    public List<Pod> makeReady() {
      return annotate(null);
    }

    /** Restart count up, {@code CrashLoopBackOff}, not ready. */
    public List<Pod> crash() {
      return annotate(CRASH);
    }

    /** Phase {@code Failed}, exit code 1. Final, as for a real pod. */
    public List<Pod> fail() {
      return annotate(FAIL);
    }

    private List<Pod> annotate(String value) {
      requireSimulated();
      String json = value == null ? "null" : "\"" + value + "\"";
      List<Pod> selected = pods.get();
      if (selected.isEmpty()) {
        throw new IllegalStateException(
            "No pod matched, so none could be set to "
                + (value == null ? "ready" : value)
                + ": are they created yet?");
      }
      return selected.stream()
          .map(
              pod ->
                  client
                      .pods()
                      .inNamespace(pod.getMetadata().getNamespace())
                      .withName(pod.getMetadata().getName())
                      .patch(
                          PatchContext.of(PatchType.JSON_MERGE),
                          "{\"metadata\":{\"annotations\":{\"" + ANNOTATION + "\":" + json + "}}}"))
          .toList();
    }
  }
}
