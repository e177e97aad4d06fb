package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.assertions.KubeAssertions;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;
import io.javaoperatorsdk.operator.processing.Controller;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** A JOSDK reconciler under @ControllerTest: per-test namespaces and every injectable. */
@ControllerTest(crds = "src/test/resources/crds", reconcilers = WidgetReconciler.class)
class ControllerTestIT {

  private static final Set<String> namespacesSeen = new HashSet<>();

  KubernetesClient client;
  @TestNamespace String namespace;
  ControlPlane controlPlane;
  KubeAssertions kube;
  WidgetReconciler reconciler;
  Operator operator;

  @BeforeEach
  void fieldsAreInjectedBeforeBeforeEachRuns() {
    assertThat(client).isNotNull();
    assertThat(namespace).isNotBlank();
    assertThat(controlPlane).isNotNull();
    assertThat(kube).isNotNull();
    assertThat(reconciler).isNotNull();
    assertThat(operator).isNotNull();
  }

  @Test
  void theTestBodyStartsOnlyOnceTheInformersHaveSynced() {
    // First thing in the body: every informer of the operator watches this namespace, synced.
    List<InformerHealthIndicator> informers =
        operator.getRuntimeInfo().getRegisteredControllers().stream()
            .flatMap(
                c ->
                    c
                        .getControllerHealthInfo()
                        .informerEventSourceHealthIndicators()
                        .values()
                        .stream())
            .flatMap(i -> i.informerHealthIndicators().values().stream())
            .map(InformerHealthIndicator.class::cast)
            .toList();
    assertThat(informers)
        .isNotEmpty()
        .allSatisfy(
            i -> {
              assertThat(i.hasSynced()).as("synced").isTrue();
              assertThat(i.isWatching()).as("watching").isTrue();
              assertThat(i.getTargetNamespace()).isEqualTo(namespace);
            });
  }

  @Test
  void reconcilerWritesTheConfigMapAndReportsReady() {
    client.resources(Widget.class).resource(Widget.named("hello", "hi there")).create();

    ConfigMap cm = eventually(client.configMaps().withName("hello")).exists();
    assertThat(cm.getData()).containsEntry("message", "hi there");
    Widget widget =
        eventually(client.resources(Widget.class).withName("hello")).hasCondition("Ready", "True");
    eventually(client.configMaps().withName("hello")).isOwnedBy(widget);
    assertThat(reconciler.reconciliations.get()).isPositive();
  }

  @Test
  void specChangesReachTheConfigMap() {
    client.resources(Widget.class).resource(Widget.named("changing", "one")).create();
    eventually(client.configMaps().withName("changing"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "one"));

    // A merge patch, not edit(): the controller updates the status meanwhile, and edit's
    // optimistic lock would then fail with a conflict.
    client
        .resources(Widget.class)
        .withName("changing")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"message\":\"two\"}}");

    kube.eventually(ConfigMap.class, "changing")
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "two"));
  }

  @Test
  void parametersAreInjectedToo(
      KubernetesClient injected, @TestNamespace String ns, WidgetReconciler sameReconciler) {
    assertThat(injected.getNamespace()).isEqualTo(ns).isEqualTo(namespace);
    assertThat(sameReconciler).isSameAs(reconciler);
  }

  @Test
  void clientIsNamespacedToTheTestNamespace() {
    assertThat(client.getNamespace()).isEqualTo(namespace);
    assertThat(client.namespaces().withName(namespace).get()).isNotNull();
  }

  @Test
  void controllersWatchOnlyTheTestNamespace() {
    String elsewhere = "elsewhere-" + namespace.substring(namespace.lastIndexOf('-') + 1);
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(elsewhere).endMetadata().build())
        .create();
    try {
      client
          .resources(Widget.class)
          .inNamespace(elsewhere)
          .resource(Widget.named("outside", "not mine"))
          .create();
      client.resources(Widget.class).resource(Widget.named("inside", "mine")).create();

      // The controller is alive and reacting meanwhile: its own namespace's widget is handled...
      eventually(client.configMaps().withName("inside")).exists();
      // ...and the other namespace's is never even seen. Seen by order, not by waiting: a watch
      // of every namespace delivers "outside" before "inside" (created later), so by the time
      // "inside" was reconciled "outside" would be in the controller's cache.
      assertThat(controllerCache())
          .contains(namespace + "/inside")
          .doesNotContain(elsewhere + "/outside");
      assertThat(reconciler.reconciled).doesNotContain(elsewhere + "/outside");
      assertThat(client.configMaps().inNamespace(elsewhere).withName("outside").get()).isNull();
    } finally {
      client.namespaces().withName(elsewhere).delete();
    }
  }

  /** The widgets in the Widget controller's informer cache, as {@code namespace/name}. */
  @SuppressWarnings("unchecked")
  private List<String> controllerCache() {
    Controller<Widget> controller =
        (Controller<Widget>) operator.getRegisteredController("widget").orElseThrow();
    return controller
        .getEventSourceManager()
        .getControllerEventSource()
        .list(w -> true)
        .map(w -> w.getMetadata().getNamespace() + "/" + w.getMetadata().getName())
        .toList();
  }

  @RepeatedTest(3)
  void everyTestGetsItsOwnNamespace() {
    synchronized (namespacesSeen) {
      assertThat(namespacesSeen.add(namespace)).as("namespace %s reused", namespace).isTrue();
    }
    assertThat(namespace).startsWith("controllertestit-everytestgetsitsownnamespace-");
    assertThat(client.resources(Widget.class).list().getItems()).isEmpty();
  }
}
