package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.consistently;
import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.report.FailureReport;
import io.github.kubeharness.junit.fixtures.StorageFixtures;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.simulation.Simulation;
import io.github.kubeharness.simulation.StorageSimulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storage on the simulated profile: kube-controller-manager's volume binder and protection
 * controllers, the scheduler's volume binding and the StatefulSet controller's claim handling run
 * as upstream's, against the volumes the harness's provisioner makes for the default class ({@code
 * standard}, {@code Immediate}) and for {@code WaitForFirstConsumer} classes; {@link
 * StorageSimulation} makes provisioning fail. The workload is database-shaped: a StatefulSet with a
 * claim template.
 */
@ControllerTest(backend = "local", profile = "simulated")
class SimulatedStorageIT {

  KubernetesClient client;
  Simulation simulation;
  @TestNamespace String namespace;
  @TempDir Path reports;

  @Test
  void aStatefulSetWithAClaimTemplateIsReadyOnBoundClaimsAndKeepsThemThroughScaleAndRoll() {
    client.resource(database("db", 3, "Retain")).create();
    Resource<StatefulSet> db = client.apps().statefulSets().withName("db");

    eventually(db).satisfies(s -> assertThat(s.getStatus().getReadyReplicas()).isEqualTo(3));
    List<PersistentVolumeClaim> claims = claims();
    assertThat(claims)
        .extracting(c -> c.getMetadata().getName())
        .containsExactly("data-db-0", "data-db-1", "data-db-2");
    assertThat(claims)
        .allSatisfy(
            c -> {
              assertThat(c.getStatus().getPhase()).isEqualTo("Bound");
              assertThat(c.getSpec().getStorageClassName()).isEqualTo("standard");
              PersistentVolume volume =
                  client.persistentVolumes().withName(c.getSpec().getVolumeName()).get();
              assertThat(volume.getMetadata().getAnnotations())
                  .containsEntry("pv.kubernetes.io/provisioned-by", StorageSimulation.PROVISIONER);
              assertThat(volume.getSpec().getCapacity())
                  .containsEntry("storage", new Quantity("1Gi"));
            });
    String db2Claim = uid("data-db-2");
    String db2Volume = claim("data-db-2").getSpec().getVolumeName();
    // The control, beside it: the same shape with Delete, scaled down at the same moment. Its
    // claim and volume go asynchronously (the pod's deletion, then the garbage collector and the
    // volume's reclaim): once they are gone, a Delete of db-2's would have shown as well.
    client.resource(database("control", 3, "Delete")).create();
    Resource<StatefulSet> control = client.apps().statefulSets().withName("control");
    eventually(control).satisfies(s -> assertThat(s.getStatus().getReadyReplicas()).isEqualTo(3));
    String control2Volume = claim("data-control-2").getSpec().getVolumeName();

    // Retain when scaled: db-2's claim outlives its pod and is db-2's again after scaling back.
    db.scale(2);
    control.scale(2);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(client.pods().withName("db-2").get()).isNull());
    eventually(client.persistentVolumeClaims().withName("data-control-2")).isDeleted();
    eventually(client.persistentVolumes().withName(control2Volume)).isDeleted();
    assertThat(claim("data-db-2").getMetadata().getUid()).isEqualTo(db2Claim);
    assertThat(claim("data-db-2").getStatus().getPhase()).isEqualTo("Bound");
    assertThat(client.persistentVolumes().withName(db2Volume).get())
        .as("db-2's volume")
        .isNotNull()
        .satisfies(v -> assertThat(v.getStatus().getPhase()).isEqualTo("Bound"));
    control.delete();
    db.scale(3);
    eventually(db).satisfies(s -> assertThat(s.getStatus().getReadyReplicas()).isEqualTo(3));
    assertThat(uid("data-db-2")).isEqualTo(db2Claim);

    // A rolling update replaces every pod; each new pod mounts its predecessor's claim.
    db.edit(
        s -> {
          s.getSpec().getTemplate().getMetadata().getAnnotations().put("version", "2");
          return s;
        });
    eventually(db)
        .satisfies(
            s -> {
              assertThat(s.getStatus().getUpdatedReplicas()).isEqualTo(3);
              assertThat(s.getStatus().getReadyReplicas()).isEqualTo(3);
              assertThat(s.getStatus().getCurrentRevision())
                  .isEqualTo(s.getStatus().getUpdateRevision());
            });
    assertThat(uid("data-db-2")).isEqualTo(db2Claim);
    assertThat(claims())
        .extracting(c -> c.getMetadata().getName())
        .filteredOn(name -> name.startsWith("data-db-"))
        .hasSize(3);
  }

  @Test
  void aDeletePolicyDeletesTheClaimsOnScaleDownAndWithTheStatefulSetAndTheirVolumesWithThem() {
    client.resource(database("gone", 2, "Delete")).create();
    Resource<StatefulSet> gone = client.apps().statefulSets().withName("gone");
    eventually(gone).satisfies(s -> assertThat(s.getStatus().getReadyReplicas()).isEqualTo(2));
    String volume1 = claim("data-gone-1").getSpec().getVolumeName();

    gone.scale(1);

    eventually(client.persistentVolumeClaims().withName("data-gone-1")).isDeleted();
    eventually(client.persistentVolumes().withName(volume1)).isDeleted();
    String volume0 = claim("data-gone-0").getSpec().getVolumeName();

    gone.delete();

    eventually(client.persistentVolumeClaims().withName("data-gone-0")).isDeleted();
    eventually(client.persistentVolumes().withName(volume0)).isDeleted();
  }

  @Test
  void aWaitForFirstConsumerClaimBindsOnlyOnceAPodUsingItIsScheduled() {
    String storageClass = "late-" + namespace;
    simulation.storage().createClass(storageClass, "WaitForFirstConsumer");
    try {
      client.resource(claimOf("late", storageClass)).create();

      consistently(client.persistentVolumeClaims().withName("late"))
          .during(Duration.ofSeconds(3))
          .satisfies(c -> assertThat(c.getStatus().getPhase()).isEqualTo("Pending"));
      assertThat(reasons("late")).contains("WaitForFirstConsumer");

      client.resource(podUsing("consumer", "late")).create();

      PersistentVolumeClaim bound =
          eventually(client.persistentVolumeClaims().withName("late"))
              .satisfies(c -> assertThat(c.getStatus().getPhase()).isEqualTo("Bound"));
      assertThat(bound.getMetadata().getAnnotations())
          .containsEntry("volume.kubernetes.io/selected-node", "simulated-node-1");
      // The volume is where the pod went, so later consumers are scheduled there too.
      assertThat(
              client
                  .persistentVolumes()
                  .withName(bound.getSpec().getVolumeName())
                  .get()
                  .getSpec()
                  .getNodeAffinity()
                  .getRequired()
                  .getNodeSelectorTerms())
          .singleElement()
          .satisfies(
              t ->
                  assertThat(t.getMatchExpressions().get(0).getValues())
                      .containsExactly("simulated-node-1"));
      Pod consumer = eventually(client.pods().withName("consumer")).hasCondition("Ready", "True");
      assertThat(consumer.getSpec().getNodeName()).isEqualTo("simulated-node-1");
    } finally {
      client.storage().v1().storageClasses().withName(storageClass).delete();
    }
  }

  @Test
  void anInjectedProvisioningFailureLeavesTheClaimPendingWithAnEventUntilRestored()
      throws Exception {
    String storageClass = "failing-" + namespace;
    simulation.storage().createClass(storageClass, "Immediate");
    try {
      // snippet:failure (docs/storage.md)
      simulation.storage().failProvisioning(storageClass, "quota exhausted");
      client.resource(claimOf("stuck", storageClass)).create();

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(events("stuck"))
                      .anySatisfy(
                          e -> {
                            assertThat(e.getType()).isEqualTo("Warning");
                            assertThat(e.getReason()).isEqualTo(StorageSimulation.FAILED_REASON);
                            assertThat(e.getMessage()).contains(storageClass, "quota exhausted");
                          }));
      consistently(client.persistentVolumeClaims().withName("stuck"))
          .during(Duration.ofSeconds(3))
          .satisfies(c -> assertThat(c.getStatus().getPhase()).isEqualTo("Pending"));
      assertThat(failureReportEvents())
          .contains(StorageSimulation.FAILED_REASON, "quota exhausted");

      simulation.storage().restoreProvisioning(storageClass);

      eventually(client.persistentVolumeClaims().withName("stuck"))
          .satisfies(c -> assertThat(c.getStatus().getPhase()).isEqualTo("Bound"));
      // end-snippet
    } finally {
      client.storage().v1().storageClasses().withName(storageClass).delete();
    }
  }

  @Test
  void aClaimTemplateAnnotatedToFailKeepsTheStatefulSetsFirstPodPending() {
    StatefulSet db = database("broken", 1, "Delete");
    db.getSpec()
        .getVolumeClaimTemplates()
        .get(0)
        .getMetadata()
        .setAnnotations(Map.of(StorageSimulation.FAIL_ANNOTATION, "disk pool offline"));
    client.resource(db).create();

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(events("data-broken-0"))
                    .extracting(Event::getMessage)
                    .anySatisfy(m -> assertThat(m).contains("disk pool offline")));
    // The provisioner may report before the StatefulSet controller has made the pod.
    eventually(client.pods().withName("broken-0")).exists();
    consistently(client.pods().withName("broken-0"))
        .during(Duration.ofSeconds(3))
        .satisfies(
            p -> {
              assertThat(p.getStatus().getPhase()).isEqualTo("Pending");
              assertThat(p.getSpec().getNodeName()).isNull();
            });
  }

  /** {@code kubeharness.simulated.storage.class}: another name for the default class, or none. */
  @Test
  void theSettingNamesTheDefaultClassOrInstallsNone() {
    ControlPlaneOptions.Builder options =
        ControlPlaneOptions.builder().withProfile(Profile.SIMULATED);
    try (ControlPlane fast =
            ControlPlanes.create(
                options
                    .withBackend(BackendOptions.local().withSimulatedStorageClass("fast"))
                    .build());
        ControlPlane bare =
            ControlPlanes.create(
                options
                    .withBackend(BackendOptions.local().withSimulatedStorageClass("none"))
                    .build())) {
      fast.start();
      bare.start();
      try (KubernetesClient fastClient = fast.newClient();
          KubernetesClient bareClient = bare.newClient()) {
        assertThat(new StorageSimulation(fast, fastClient).defaultClass()).isEqualTo("fast");
        assertThat(bareClient.storage().v1().storageClasses().list().getItems()).isEmpty();
        assertThatThrownBy(() -> new StorageSimulation(bare, bareClient).defaultClass())
            .hasMessageContaining("kubeharness.simulated.storage.class");
      }
    }
  }

  /** The events.txt of the report a failing test in this namespace would leave now. */
  private String failureReportEvents() throws java.io.IOException {
    FailureReport report =
        FailureReport.write(
            reports.resolve("report"),
            client,
            namespace,
            Instant.now(),
            Optional.empty(),
            List.of());
    return Files.readString(report.directory().resolve("events.txt"));
  }

  /** The database-shaped fixture: {@code replicas} pods, each with a 1Gi claim {@code data}. */
  private static StatefulSet database(String name, int replicas, String retention) {
    return StorageFixtures.database(name, replicas, "postgres:17", "1Gi")
        .editSpec()
        .editTemplate()
        .editMetadata()
        .addToAnnotations("version", "1")
        .endMetadata()
        .endTemplate()
        .withNewPersistentVolumeClaimRetentionPolicy()
        .withWhenScaled(retention)
        .withWhenDeleted(retention)
        .endPersistentVolumeClaimRetentionPolicy()
        .endSpec()
        .build();
  }

  private static PersistentVolumeClaim claimOf(String name, String storageClass) {
    return StorageFixtures.claim(name, "1Gi")
        .editSpec()
        .withStorageClassName(storageClass)
        .endSpec()
        .build();
  }

  private static Pod podUsing(String name, String claim) {
    return StorageFixtures.podUsing(name, claim, "busybox").build();
  }

  private List<PersistentVolumeClaim> claims() {
    return client.persistentVolumeClaims().list().getItems().stream()
        .sorted(java.util.Comparator.comparing(c -> c.getMetadata().getName()))
        .toList();
  }

  private PersistentVolumeClaim claim(String name) {
    return client.persistentVolumeClaims().withName(name).require();
  }

  private String uid(String claim) {
    return claim(claim).getMetadata().getUid();
  }

  private List<Event> events(String claim) {
    return client.v1().events().withField("involvedObject.name", claim).list().getItems();
  }

  private List<String> reasons(String claim) {
    return events(claim).stream().map(Event::getReason).toList();
  }
}
