package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.github.kubeharness.junit.MatrixTest;
import io.github.kubeharness.junit.TestNamespace;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookSpec;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookSpec.ServiceType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What the Guestbook operator does, test by test, the way the kubebuilder tutorial walks it:
 * create, change, break, recover, delete. {@link GuestbookIT} runs these as cluster admin on each
 * of the three newest Kubernetes minors (they are {@link MatrixTest}s: once per version of a
 * class's matrix, once where it has none), {@link GuestbookUnderOwnRbacIT} as the operator's own
 * ServiceAccount bound by {@code config/rbac}.
 *
 * <p>{@link GuestbookOnKindIT} runs them on a real node.
 *
 * <p>Pods run wherever these tests run — on KWOK's simulated node (the {@code simulated} profile)
 * or on kind's real one — so no test writes a Deployment's status: ready replicas come from pods
 * that started. ({@link GuestbookStatusByHandIT} keeps the by-hand way, on purpose.)
 */
abstract class GuestbookBehaviour {

  KubernetesClient client;
  @TestNamespace String namespace;

  @MatrixTest
  void createsConfigMapDeploymentAndServiceOwnedByTheGuestbook() {
    Guestbook guestbook = create("hello", spec -> spec.setMessage("Hello, Kubernetes!"));

    ConfigMap configMap = eventually(configMap("hello")).isOwnedBy(guestbook);
    assertThat(configMap.getData())
        .containsEntry("message", "Hello, Kubernetes!")
        .hasEntrySatisfying("index.html", page -> assertThat(page).contains("Hello, Kubernetes!"));

    Deployment deployment = eventually(deployment("hello")).isOwnedBy(guestbook);
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers())
        .singleElement()
        .satisfies(c -> assertThat(c.getImage()).isEqualTo(expectedImage()));
    assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes())
        .singleElement()
        .satisfies(v -> assertThat(v.getConfigMap().getName()).isEqualTo("hello"));

    Service service = eventually(service("hello")).isOwnedBy(guestbook);
    assertThat(service.getSpec().getType()).isEqualTo("ClusterIP");
    assertThat(service.getSpec().getSelector())
        .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
  }

  @MatrixTest
  void replicasChangeReachesTheDeployment() {
    create("scaled", spec -> spec.setReplicas(1));
    eventually(deployment("scaled")).exists();

    edit("scaled", spec -> spec.setReplicas(3));

    eventually(deployment("scaled"))
        .satisfies(d -> assertThat(d.getSpec().getReplicas()).isEqualTo(3));
  }

  @MatrixTest
  void imageChangeReachesTheDeployment() {
    create("upgraded", spec -> {});
    eventually(deployment("upgraded")).exists();

    edit("upgraded", spec -> spec.setImage("nginx:1.28-alpine"));

    eventually(deployment("upgraded"))
        .satisfies(
            d ->
                assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                    .isEqualTo("nginx:1.28-alpine"));
  }

  @MatrixTest
  void messageChangeReachesTheConfigMap() {
    create("greeting", spec -> spec.setMessage("first"));
    eventually(configMap("greeting"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "first"));

    edit("greeting", spec -> spec.setMessage("second <b>&</b>"));

    eventually(configMap("greeting"))
        .satisfies(
            cm ->
                assertThat(cm.getData())
                    .containsEntry("message", "second <b>&</b>")
                    .hasEntrySatisfying(
                        "index.html", page -> assertThat(page).contains("second &lt;b&gt;&amp;")));
  }

  @MatrixTest
  void serviceTypeChangeReachesTheService() {
    // A random node port: classes run one after another and namespaces are deleted lazily.
    int nodePort = 30000 + ThreadLocalRandom.current().nextInt(2768);
    create("exposed", spec -> {});
    eventually(service("exposed"))
        .satisfies(s -> assertThat(s.getSpec().getType()).isEqualTo("ClusterIP"));

    edit(
        "exposed",
        spec -> {
          spec.setServiceType(ServiceType.NodePort);
          spec.setNodePort(nodePort);
        });
    eventually(service("exposed"))
        .satisfies(
            s -> {
              assertThat(s.getSpec().getType()).isEqualTo("NodePort");
              assertThat(s.getSpec().getPorts().get(0).getNodePort()).isEqualTo(nodePort);
            });

    edit(
        "exposed",
        spec -> {
          spec.setServiceType(ServiceType.ClusterIP);
          spec.setNodePort(null);
        });
    eventually(service("exposed"))
        .satisfies(
            s -> {
              assertThat(s.getSpec().getType()).isEqualTo("ClusterIP");
              assertThat(s.getSpec().getPorts().get(0).getNodePort()).isNull();
            });
  }

  @MatrixTest
  void handEditedDeploymentIsPutBack() {
    create("drifting", spec -> spec.setReplicas(2));
    eventually(deployment("drifting"))
        .satisfies(d -> assertThat(d.getSpec().getReplicas()).isEqualTo(2));

    Deployment edited = null;
    // As `kubectl edit` would, retried on a conflict with a concurrent write of the operator.
    for (int attempt = 1; edited == null; attempt++) {
      try {
        edited =
            deployment("drifting")
                .edit(
                    d -> {
                      d.getSpec().setReplicas(5);
                      d.getSpec()
                          .getTemplate()
                          .getSpec()
                          .getContainers()
                          .get(0)
                          .setImage("busybox");
                      return d;
                    });
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 10) {
          throw e;
        }
      }
    }
    assertThat(edited.getSpec().getReplicas()).isEqualTo(5);

    // The watch starts after the edit was stored, so seeing the spec's values again means the
    // operator noticed the change and re-applied its own.
    eventually(deployment("drifting"))
        .satisfies(
            d -> {
              assertThat(d.getSpec().getReplicas()).isEqualTo(2);
              assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                  .isEqualTo(expectedImage());
            });
  }

  @MatrixTest
  void deletedChildIsRecreated() {
    create("resilient", spec -> {});
    String uid = eventually(service("resilient")).exists().getMetadata().getUid();

    service("resilient").withTimeout(10, TimeUnit.SECONDS).delete();

    eventually(service("resilient"))
        .satisfies(s -> assertThat(s.getMetadata().getUid()).isNotEqualTo(uid));
  }

  @MatrixTest
  void statusSaysProgressingWhileNoReplicaIsReady() {
    allowPods(0);
    Guestbook created = create("waiting", spec -> spec.setReplicas(2));

    Guestbook guestbook =
        eventually(guestbook("waiting")).hasCondition("Progressing", "True", "WaitingForReplicas");

    assertThat(guestbook.getStatus().getObservedGeneration())
        .isEqualTo(created.getMetadata().getGeneration());
    assertThat(guestbook.getStatus().getReadyReplicas()).isZero();
    assertThat(guestbook.getStatus().condition("Ready"))
        .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("False"));
    assertThat(guestbook.getStatus().condition("Degraded"))
        .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("False"));
  }

  @MatrixTest
  void becomesReadyWhenTheDeploymentReportsReadyReplicas() {
    create("ready", spec -> spec.setReplicas(1));
    eventually(guestbook("ready")).hasCondition("Progressing", "True");

    // Its pod starts and turns ready; the Deployment controller counts it.
    Guestbook guestbook = eventually(guestbook("ready")).hasCondition("Ready", "True");
    assertThat(guestbook.getStatus().getReadyReplicas()).isEqualTo(1);
    assertThat(guestbook.getStatus().condition("Progressing"))
        .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("Complete"));

    // Scaling up while the namespace's quota allows one pod: the new replica cannot start, and
    // one ready replica is no longer enough.
    allowPods(1);
    edit("ready", spec -> spec.setReplicas(2));
    guestbook = eventually(guestbook("ready")).hasCondition("Ready", "False", "ReplicasNotReady");
    assertThat(guestbook.getStatus().getObservedGeneration()).isEqualTo(2);
  }

  @MatrixTest
  void rapidSuccessiveChangesAreNeverDropped() {
    create("busy", spec -> {});
    for (int i = 0; i <= 10; i++) {
      int replicas = i;
      edit(
          "busy",
          spec -> {
            spec.setReplicas(replicas);
            spec.setMessage("edit " + replicas);
          });
    }
    long generation = guestbook("busy").get().getMetadata().getGeneration();

    eventually(deployment("busy"))
        .satisfies(d -> assertThat(d.getSpec().getReplicas()).isEqualTo(10));
    eventually(configMap("busy"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "edit 10"));
    eventually(guestbook("busy"))
        .satisfies(g -> assertThat(g.getStatus().getObservedGeneration()).isEqualTo(generation));
  }

  @MatrixTest
  void recoversAfterTheDeploymentIsRefused() {
    // A quota that allows no Deployment; its status is written here as the quota controller would.
    var quota =
        client
            .resourceQuotas()
            .resource(
                new ResourceQuotaBuilder()
                    .withNewMetadata()
                    .withName("no-deployments")
                    .endMetadata()
                    .withNewSpec()
                    .addToHard("count/deployments.apps", new Quantity("0"))
                    .endSpec()
                    .build())
            .create();
    client
        .resourceQuotas()
        .withName(quota.getMetadata().getName())
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"status\":{\"hard\":{\"count/deployments.apps\":\"0\"},"
                + "\"used\":{\"count/deployments.apps\":\"0\"}}}");

    allowPods(0); // so that, once unblocked, it waits for replicas
    create("blocked", spec -> {});

    Guestbook degraded =
        eventually(guestbook("blocked")).hasCondition("Degraded", "True", "QuotaExceeded");
    assertThat(degraded.getStatus().condition("Degraded").orElseThrow().getMessage())
        .contains("deployments.apps \"blocked\" is forbidden", "exceeded quota: no-deployments");
    assertThat(degraded.getStatus().condition("Progressing").orElseThrow().getReason())
        .isEqualTo("Blocked");
    assertThat(warningEvents("blocked"))
        .anySatisfy(
            e -> {
              assertThat(e.getReason()).isEqualTo("QuotaExceeded");
              assertThat(e.getMessage()).contains("exceeded quota");
            });

    client.resourceQuotas().withName("no-deployments").delete();

    // No event announces the quota's removal: the retry with backoff finds it.
    eventually(deployment("blocked")).exists();
    eventually(guestbook("blocked")).hasCondition("Degraded", "False", "ReconcileSucceeded");
    eventually(guestbook("blocked")).hasCondition("Progressing", "True", "WaitingForReplicas");
  }

  @MatrixTest
  void deletionIsLoggedAndTheGarbageCollectorRemovesTheChildren() {
    try (LogLines log = LogLines.of(GuestbookReconciler.class)) {
      create("doomed", spec -> {});
      eventually(configMap("doomed")).exists();
      eventually(deployment("doomed")).exists();
      eventually(service("doomed")).exists();

      guestbook("doomed").delete();

      // No finalizer: the Guestbook goes at once, its owner references let the GC do the rest.
      eventually(guestbook("doomed")).isDeleted();
      eventually(configMap("doomed")).within(garbageCollectionTimeout()).isDeleted();
      eventually(deployment("doomed")).within(garbageCollectionTimeout()).isDeleted();
      eventually(service("doomed")).within(garbageCollectionTimeout()).isDeleted();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(log.messages())
                      .contains("Guestbook " + namespace + "/doomed is gone"));
    }
  }

  // --- what differs where pods run ---

  /** The image the tests' Guestbooks run; null leaves it to the CRD's default. */
  String image() {
    return null;
  }

  /**
   * How long the garbage collector may take to remove a deleted Guestbook's children. It learns of
   * new resource types only every 30 s; the local control plane restarts it after installing the
   * Guestbook CRD, so children go within milliseconds of their Guestbook. This stays below that
   * period so a missing restart shows here.
   */
  Duration garbageCollectionTimeout() {
    return Duration.ofSeconds(10);
  }

  // --- helpers: the tutorial's kubectl commands, in Java ---

  /** A quota of {@code count} pods in the test's namespace: replicas beyond it never start. */
  void allowPods(int count) {
    client
        .resource(
            new ResourceQuotaBuilder()
                .withNewMetadata()
                .withName("at-most-" + count + "-pods")
                .endMetadata()
                .withNewSpec()
                .addToHard("pods", new Quantity(Integer.toString(count)))
                .endSpec()
                .build())
        .create();
  }

  Guestbook create(String name, Consumer<GuestbookSpec> customizer) {
    Guestbook guestbook = Guestbook.named(name);
    guestbook.getSpec().setImage(image());
    customizer.accept(guestbook.getSpec());
    return client.resource(guestbook).create();
  }

  void edit(String name, Consumer<GuestbookSpec> change) {
    SpecEdits.edit(guestbook(name), change);
  }

  String expectedImage() {
    return image() != null ? image() : GuestbookSpec.DEFAULT_IMAGE;
  }

  List<Event> warningEvents(String involvedName) {
    return client.v1().events().list().getItems().stream()
        .filter(e -> involvedName.equals(e.getInvolvedObject().getName()))
        .filter(e -> "Guestbook".equals(e.getInvolvedObject().getKind()))
        .filter(e -> "Warning".equals(e.getType()))
        .toList();
  }

  Resource<Guestbook> guestbook(String name) {
    return client.resources(Guestbook.class).withName(name);
  }

  Resource<ConfigMap> configMap(String name) {
    return client.configMaps().withName(name);
  }

  Resource<Deployment> deployment(String name) {
    return client.apps().deployments().withName(name);
  }

  Resource<Service> service(String name) {
    return client.services().withName(name);
  }
}
