package io.github.kubeharness.internal.backend;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static io.github.kubeharness.junit.fixtures.StorageFixtures.claim;
import static io.github.kubeharness.junit.fixtures.StorageFixtures.database;
import static io.github.kubeharness.junit.fixtures.StorageFixtures.podUsing;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Storage on the kind backend: the node image's default StorageClass ({@code standard}, served by
 * hack/kind/provisioner) gives a claim a real directory on the node, so what one pod writes to its
 * volume the pod that replaces it reads back. Tagged "kind", like {@link KindBackendIT}.
 */
@Tag("kind")
@ControllerTest(backend = "kind")
class KindStorageIT {

  private static final Duration POD_START = Duration.ofMinutes(2);

  ControlPlane controlPlane;
  KubernetesClient client;
  @TestNamespace String namespace;

  @BeforeEach
  void loadTheWorkloadImage() {
    controlPlane.loadImage(KindBackendIT.IMAGE);
  }

  @Test
  void aFileWrittenToAVolumeIsReadByThePodThatReplacesTheWriter() {
    client.resource(claim("notes", "10Mi").build()).create();
    String line = "written by the first pod in " + namespace;

    client.resource(webPod("writer", "notes", "-say", line, "-write", "/data/note.txt")).create();
    eventually(client.pods().withName("writer"))
        .within(POD_START)
        .satisfies(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Succeeded"));
    PersistentVolumeClaim bound =
        eventually(client.persistentVolumeClaims().withName("notes"))
            .satisfies(c -> assertThat(c.getStatus().getPhase()).isEqualTo("Bound"));
    // Made by the provisioner of the default class (the node image's, or kindest/node's own).
    String provisioner =
        client.storage().v1().storageClasses().withName("standard").get().getProvisioner();
    assertThat(
            client
                .persistentVolumes()
                .withName(bound.getSpec().getVolumeName())
                .get()
                .getMetadata()
                .getAnnotations())
        .containsEntry("pv.kubernetes.io/provisioned-by", provisioner);
    client.pods().withName("writer").withTimeout(1, TimeUnit.MINUTES).delete();

    client.resource(webPod("reader", "notes", "-cat", "/data/note.txt")).create();
    eventually(client.pods().withName("reader"))
        .within(POD_START)
        .satisfies(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Succeeded"));
    assertThat(client.pods().withName("reader").getLog()).contains(line);

    // Reclaim policy Delete: with the claim gone, the provisioner deletes the volume.
    client.pods().withName("reader").withTimeout(1, TimeUnit.MINUTES).delete();
    client.persistentVolumeClaims().withName("notes").delete();
    eventually(client.persistentVolumes().withName(bound.getSpec().getVolumeName())).isDeleted();
  }

  /** The database-shaped fixture on real nodes: Ready on bound claims, its claims per policy. */
  @Test
  void aStatefulSetWithAClaimTemplateIsReadyAndDeletesTheClaimsOfScaledDownPods() {
    client
        .resource(
            database("db", 2, KindBackendIT.IMAGE, "10Mi")
                .editSpec()
                .editTemplate()
                .editSpec()
                .editFirstContainer()
                .withName("web")
                .withImagePullPolicy("IfNotPresent")
                .withArgs("-dir", "/data", "-listen", ":8080")
                .endContainer()
                .endSpec()
                .endTemplate()
                .withNewPersistentVolumeClaimRetentionPolicy()
                .withWhenScaled("Delete")
                .withWhenDeleted("Retain")
                .endPersistentVolumeClaimRetentionPolicy()
                .endSpec()
                .build())
        .create();

    eventually(client.apps().statefulSets().withName("db"))
        .within(POD_START)
        .satisfies(s -> assertThat(s.getStatus().getReadyReplicas()).isEqualTo(2));
    assertThat(client.persistentVolumeClaims().list().getItems())
        .extracting(c -> c.getMetadata().getName() + " " + c.getStatus().getPhase())
        .containsExactlyInAnyOrder("data-db-0 Bound", "data-db-1 Bound");

    client.apps().statefulSets().withName("db").scale(1);

    eventually(client.persistentVolumeClaims().withName("data-db-1")).within(POD_START).isDeleted();
    assertThat(client.persistentVolumeClaims().withName("data-db-0").get()).isNotNull();
  }

  /** A pod of the web image, run once with {@code args}, with {@code claim} at /data. */
  private static Pod webPod(String name, String claim, String... args) {
    return podUsing(name, claim, KindBackendIT.IMAGE, args)
        .editSpec()
        .withRestartPolicy("Never")
        .editFirstContainer()
        .withImagePullPolicy("IfNotPresent")
        .endContainer()
        .endSpec()
        .build();
  }
}
