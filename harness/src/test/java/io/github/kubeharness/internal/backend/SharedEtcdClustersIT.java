package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.Backend;
import io.github.kubeharness.ComponentProcesses;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.process.InParallel;
import io.github.kubeharness.internal.process.Waits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Clusters on one etcd (the local backend's {@code clusters}): each apiserver its own CA and key
 * prefix, so none sees another's objects nor trusts another's credentials; the prefixes the etcd
 * seed bootstrapped go to one cluster each, once.
 */
class SharedEtcdClustersIT {

  @Test
  void aClusterBesideAnotherSharesItsEtcdButNothingElse() {
    HarnessControlPlane hub =
        Backends.newControlPlane(
            ControlPlaneOptions.builder()
                .withBackend(Backend.LOCAL)
                .withProfile(Profile.MINIMAL)
                .build());
    hub.start();
    HarnessControlPlane edge = Backends.newClusterBeside(hub, "edge-1", "SharedEtcdClustersIT");
    try {
      edge.start();
      assertThat(edge.apiServerUrl()).isNotEqualTo(hub.apiServerUrl());
      // One etcd process: the hub's; the edge runs an apiserver only.
      assertThat(edge.logDirectory().orElseThrow().resolve("etcd.log")).doesNotExist();
      try (KubernetesClient hubClient = hub.newClient();
          KubernetesClient edgeClient = edge.newClient()) {
        hubClient
            .configMaps()
            .inNamespace("default")
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("only-on-the-hub")
                    .endMetadata()
                    .build())
            .create();
        assertThat(edgeClient.configMaps().inNamespace("default").withName("only-on-the-hub").get())
            .isNull();
        // Both have their own default namespace, written under their own prefix.
        assertThat(edgeClient.namespaces().withName("default").get()).isNotNull();
      }
      // The edge's CA signs nothing the hub accepts: credentials do not cross clusters. The same
      // client made the same way with the hub's own credentials is the control: it lists, so the
      // refusal is the credentials' alone (not the TLS settings or the URL).
      try (KubernetesClient hubsOwn = clientOf(hub, hub);
          KubernetesClient crossed = clientOf(edge, hub)) {
        assertThat(hubsOwn.namespaces().list().getItems())
            .extracting(n -> n.getMetadata().getName())
            .contains("default");
        assertThatThrownBy(() -> crossed.namespaces().list())
            .as("the edge's credentials at the hub")
            .isInstanceOfSatisfying(
                KubernetesClientException.class,
                refused -> {
                  assertThat(refused.getCode()).as("status code").isEqualTo(401);
                  assertThat(refused.getStatus()).as("the API server's Status").isNotNull();
                  assertThat(refused.getStatus().getReason()).isEqualTo("Unauthorized");
                });
      }
    } finally {
      edge.stop();
      hub.stop();
    }
  }

  @Test
  void clustersBesideTheFirstEachGetAKeyspaceOfTheSeedNeverOneAnotherHadOrHas() {
    HarnessControlPlane hub = minimalHub();
    hub.start();
    List<HarnessControlPlane> edges = new ArrayList<>();
    try {
      // Two at once, as a class with three clusters starts them.
      List<HarnessControlPlane> together =
          List.of(beside(hub, "edge-4", edges), beside(hub, "edge-5", edges));
      InParallel.map(together, this::started, "SharedEtcdClustersIT");
      String four = prefix(together.get(0));
      String five = prefix(together.get(1));
      assertThat(List.of(four, five))
          .allMatch(prefix -> prefix.startsWith("/registry.slot-"))
          .doesNotHaveDuplicates();
      try (KubernetesClient edge4 = together.get(0).newClient();
          KubernetesClient edge5 = together.get(1).newClient()) {
        edge4.configMaps().inNamespace("default").resource(configMap("only-on-edge-4")).create();
        assertThat(edge5.configMaps().inNamespace("default").withName("only-on-edge-4").get())
            .isNull();
      }

      // A stopped cluster's keyspace still holds its objects: the next cluster gets another.
      together.get(0).stop();
      HarnessControlPlane six = started(beside(hub, "edge-6", edges));
      assertThat(prefix(six)).startsWith("/registry.slot-").isNotIn(four, five);

      // None left: the next one bootstraps a prefix of its own, and is a whole cluster all the
      // same.
      HarnessControlPlane seven = started(beside(hub, "edge-7", edges));
      assertThat(prefix(seven)).isEqualTo("/registry-edge-7");
      for (HarnessControlPlane edge : List.of(six, seven)) {
        try (KubernetesClient client = edge.newClient()) {
          assertThat(client.rbac().clusterRoles().withName("cluster-admin").get()).isNotNull();
          assertThat(client.configMaps().inNamespace("default").withName("only-on-edge-4").get())
              .isNull();
        }
      }
    } finally {
      stopAll(edges, hub);
    }
  }

  @Test
  void aClusterBesideStartsOnAKeyspaceTheSeedBootstrappedNotAnEmptyOne() {
    // The same objects in two runs (their uid says so): copied from the seed, not made at start.
    String[] first = clusterAdminUids("edge-8");
    String[] second = clusterAdminUids("edge-9");
    assertThat(second[1]).isEqualTo(first[1]);
    // Bootstrapped apart from the first cluster's, as its own apiserver would have.
    assertThat(first[1]).isNotEqualTo(first[0]);
  }

  // The uid of ClusterRole cluster-admin in a fresh first cluster and in a cluster beside it.
  private String[] clusterAdminUids(String name) {
    HarnessControlPlane hub = minimalHub();
    hub.start();
    List<HarnessControlPlane> edges = new ArrayList<>();
    try {
      HarnessControlPlane edge = started(beside(hub, name, edges));
      assertThat(prefix(edge)).startsWith("/registry.slot-");
      try (KubernetesClient hubClient = hub.newClient();
          KubernetesClient edgeClient = edge.newClient()) {
        ClusterRole onHub = hubClient.rbac().clusterRoles().withName("cluster-admin").get();
        ClusterRole onEdge = edgeClient.rbac().clusterRoles().withName("cluster-admin").get();
        // Ready without the bootstrap hooks: their objects must be there already.
        assertThat(onEdge).as("cluster-admin on " + name + " once it is ready").isNotNull();
        return new String[] {onHub.getMetadata().getUid(), onEdge.getMetadata().getUid()};
      }
    } finally {
      stopAll(edges, hub);
    }
  }

  /**
   * A client with {@code credentials}' identity (its client certificate and key) sent to {@code
   * server}'s URL, trusting any server certificate: only the identity differs between two such.
   */
  private static KubernetesClient clientOf(
      HarnessControlPlane credentials, HarnessControlPlane server) {
    try (KubernetesClient own = credentials.newClient()) {
      return new KubernetesClientBuilder()
          .withConfig(
              new ConfigBuilder(own.getConfiguration())
                  .withMasterUrl(server.apiServerUrl())
                  .withTrustCerts(true)
                  .withDisableHostnameVerification(true)
                  .build())
          .build();
    }
  }

  private static HarnessControlPlane minimalHub() {
    return Backends.newControlPlane(
        ControlPlaneOptions.builder()
            .withBackend(Backend.LOCAL)
            .withProfile(Profile.MINIMAL)
            .build());
  }

  private static HarnessControlPlane beside(
      HarnessControlPlane hub, String name, List<HarnessControlPlane> made) {
    HarnessControlPlane edge = Backends.newClusterBeside(hub, name, "SharedEtcdClustersIT");
    made.add(edge);
    return edge;
  }

  private HarnessControlPlane started(HarnessControlPlane plane) {
    plane.start();
    return plane;
  }

  private static String prefix(HarnessControlPlane plane) {
    return ((LocalControlPlane) plane).etcdPrefix();
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  private static void stopAll(List<HarnessControlPlane> edges, HarnessControlPlane hub) {
    for (HarnessControlPlane edge : edges) {
      edge.stop();
    }
    hub.stop();
  }

  @Test
  void aClusterBesideOneStillStartingLaunchesWhileItBootsAndIsUpWithIt() throws Exception {
    HarnessControlPlane hub = minimal(Duration.ofSeconds(60));
    HarnessControlPlane edge = Backends.newClusterBeside(hub, "edge-2", "SharedEtcdClustersIT");
    Set<Long> before = descendants();
    CompletableFuture<Void> hubStart = CompletableFuture.runAsync(hub::start);
    CompletableFuture<Void> edgeStart = null;
    // The hub's apiserver held in its boot (SIGSTOP): the hub cannot be up until it is let go.
    long hubApiServer = awaitNewApiServer(before, false);
    signal("STOP", hubApiServer);
    try {
      edgeStart = CompletableFuture.runAsync(edge::start);
      // The edge launches its apiserver on the hub's etcd all the same.
      awaitNewApiServer(before, true);
      assertThat(hub.isRunning()).isFalse();
    } finally {
      signal("CONT", hubApiServer);
    }
    try {
      hubStart.get(60, TimeUnit.SECONDS);
      edgeStart.get(60, TimeUnit.SECONDS);
      try (KubernetesClient edgeClient = edge.newClient()) {
        assertThat(edgeClient.namespaces().withName("default").get()).isNotNull();
      }
    } finally {
      edgeStart.handle((ok, e) -> null).join();
      edge.stop();
      hubStart.handle((ok, e) -> null).join();
      hub.stop();
    }
  }

  private static Set<Long> descendants() {
    return ProcessHandle.current()
        .descendants()
        .map(ProcessHandle::pid)
        .collect(Collectors.toSet());
  }

  // A kube-apiserver this JVM launched since `before`: a cluster beside another (its own key
  // prefix) or a first one.
  private static long awaitNewApiServer(Set<Long> before, boolean beside) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      Optional<ProcessHandle> found =
          ProcessHandle.current()
              .descendants()
              .filter(p -> !before.contains(p.pid()))
              .filter(
                  p ->
                      p.info()
                          .commandLine()
                          .filter(line -> line.contains("kube-apiserver"))
                          .filter(line -> line.contains("--etcd-prefix=") == beside)
                          .isPresent())
              .findFirst();
      if (found.isPresent()) {
        return found.get().pid();
      }
      Waits.sleep(10);
    }
    throw new AssertionError(
        "no " + (beside ? "kube-apiserver beside the first" : "first kube-apiserver") + " in 30 s");
  }

  private static void signal(String signal, long pid) throws Exception {
    assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor())
        .isZero();
  }

  @Test
  void aClusterBesideOneWhoseStartFailsEndsAtOnceNamingItselfAndThatCause() {
    // The hub's apiserver exits at once on a flag it does not know; the edge (same options) had
    // launched on the hub's etcd and waits for the hub before its own readiness.
    HarnessControlPlane hub =
        Backends.newControlPlane(
            ControlPlaneOptions.builder()
                .withBackend(Backend.LOCAL)
                .withProfile(Profile.MINIMAL)
                .withExtraApiServerFlag("--no-such-flag-for-this-test=1")
                .build());
    HarnessControlPlane edge = Backends.newClusterBeside(hub, "edge-2", "SharedEtcdClustersIT");
    CompletableFuture<Void> edgeStart = CompletableFuture.runAsync(edge::start);
    assertThatThrownBy(hub::start).hasMessageContaining("exited with code");
    assertThatThrownBy(() -> edgeStart.get(60, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("Cluster 'edge-2' (an apiserver on the shared etcd) failed to start")
        .hasMessageContaining("the control plane whose etcd it shares did not start")
        .hasMessageNotContaining("Timed out");
    assertThat(edge.isRunning()).isFalse();
  }

  @Test
  void aClusterBesideOneThatStoppedOrNeverStartsNamesItself() {
    HarnessControlPlane hub = minimal(Duration.ofSeconds(60));
    hub.start();
    hub.stop();
    HarnessControlPlane afterStop =
        Backends.newClusterBeside(hub, "edge-2", "SharedEtcdClustersIT");
    assertThatThrownBy(afterStop::start)
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("Cluster 'edge-2'")
        .hasMessageContaining("has stopped: start that control plane first");

    HarnessControlPlane neverStarted = minimal(Duration.ofSeconds(2));
    HarnessControlPlane waiting =
        Backends.newClusterBeside(neverStarted, "edge-3", "SharedEtcdClustersIT");
    assertThatThrownBy(waiting::start)
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("Cluster 'edge-3'")
        .hasMessageContaining(
            "Timed out waiting for the control plane whose etcd cluster 'edge-3' shares to be"
                + " launched");
  }

  private static HarnessControlPlane minimal(Duration startTimeout) {
    return Backends.newControlPlane(
        ControlPlaneOptions.builder()
            .withBackend(Backend.LOCAL)
            .withProfile(Profile.MINIMAL)
            .withStartTimeout(startTimeout)
            .build());
  }

  @Test
  void aClusterThatCannotReachTheSharedEtcdNamesItselfInItsFailure() {
    HarnessControlPlane hub =
        Backends.newControlPlane(
            ControlPlaneOptions.builder()
                .withBackend(Backend.LOCAL)
                .withProfile(Profile.MINIMAL)
                .withStartTimeout(Duration.ofSeconds(60))
                .build());
    hub.start();
    try {
      // The hub's etcd gone: the next cluster's apiserver never gets ready.
      ProcessHandle etcd = ProcessHandle.of(ComponentProcesses.of(hub).get("etcd")).orElseThrow();
      etcd.destroyForcibly();
      etcd.onExit().join();
      // Only the cluster that cannot start has a short timeout: the hub has what a loaded machine
      // needs (a 5 s hub timed out under make test's load, before the edge was even tried).
      HarnessControlPlane edge =
          ((LocalControlPlane) hub).besideOnSharedEtcd("edge-3", Duration.ofSeconds(5));
      assertThatThrownBy(edge::start)
          .isInstanceOf(KubeHarnessException.class)
          .hasMessageContaining(
              "Cluster 'edge-3' (an apiserver on the shared etcd) failed to start");
      // Nothing of it is left running.
      assertThat(edge.isRunning()).isFalse();
    } finally {
      try {
        hub.stop();
      } catch (RuntimeException e) {
        // its etcd was killed on purpose
      }
    }
  }

  @Test
  void theExistingBackendRefusesClustersNamingTheOnesThatCan() {
    HarnessControlPlane existing =
        Backends.newControlPlane(
            ControlPlaneOptions.builder().withBackend(Backend.EXISTING).build());
    assertThatThrownBy(() -> Backends.newClusterBeside(existing, "edge-1", "MyIT"))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("MyIT")
        .hasMessageContaining("several clusters in one test")
        .hasMessageContaining("local");
  }
}
