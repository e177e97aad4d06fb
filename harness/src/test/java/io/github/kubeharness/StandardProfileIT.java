package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.launch.ControlPlanes;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The standard profile adds kube-controller-manager: what envtest cannot do — namespaces finish
 * deleting and owned objects are garbage-collected — must work here.
 */
@BackendSensitive
class StandardProfileIT {

  static ControlPlane controlPlane;
  static KubernetesClient admin;

  @BeforeAll
  static void start() {
    controlPlane =
        ControlPlanes.create(ControlPlaneOptions.builder().withProfile(Profile.STANDARD).build());
    controlPlane.start();
    admin = controlPlane.newClient();
  }

  @AfterAll
  static void stop() {
    admin.close();
    if (controlPlane.backend() != Backend.LOCAL) {
      controlPlane.stop(); // the container backend's own test checks its containers are gone
      return;
    }
    Map<String, Long> pids = ComponentProcesses.of(controlPlane);
    controlPlane.stop();
    assertThat(pids)
        .containsOnlyKeys("etcd", "kube-apiserver", "kube-controller-manager")
        .allSatisfy((name, pid) -> assertThat(ProcessHandle.of(pid)).isEmpty());
  }

  @Test
  void namespaceDeletionCompletes() {
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("doomed").endMetadata().build())
        .create();
    admin
        .configMaps()
        .inNamespace("doomed")
        .resource(
            new ConfigMapBuilder().withNewMetadata().withName("content").endMetadata().build())
        .create();

    admin.namespaces().withName("doomed").delete();

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(admin.namespaces().withName("doomed").get()).isNull());
  }

  @Test
  void deletingAnOwnerGarbageCollectsItsDependent() {
    ConfigMap owner =
        admin
            .configMaps()
            .inNamespace("default")
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build())
            .create();
    admin
        .configMaps()
        .inNamespace("default")
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("dependent")
                .addNewOwnerReference()
                .withApiVersion("v1")
                .withKind("ConfigMap")
                .withName("owner")
                .withUid(owner.getMetadata().getUid())
                .endOwnerReference()
                .endMetadata()
                .build())
        .create();

    admin.configMaps().inNamespace("default").withName("owner").delete();

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertThat(admin.configMaps().inNamespace("default").withName("dependent").get())
                    .isNull());
  }

  @Test
  void serviceAccountControllerCreatesDefaultAccountsInNewNamespaces() {
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("fresh").endMetadata().build())
        .create();
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(admin.serviceAccounts().inNamespace("fresh").withName("default").get())
                    .isNotNull());
  }
}
