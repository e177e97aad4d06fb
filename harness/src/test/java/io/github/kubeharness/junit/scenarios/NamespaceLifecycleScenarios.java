package io.github.kubeharness.junit.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.NamespaceMode;
import io.github.kubeharness.junit.TestNamespace;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * What happens to a test's namespace afterwards. The first three classes record their namespaces;
 * {@link Checker}, run last in the same launcher (so on the same control plane, still running),
 * inspects them. Run with class ordering by {@code @Order}.
 */
public final class NamespaceLifecycleScenarios {

  static volatile String passedNamespace;
  static volatile String keptNamespace;
  static final Set<String> perClassNamespaces = ConcurrentHashMap.newKeySet();
  static final Set<Object> perClassReconcilers =
      Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

  private NamespaceLifecycleScenarios() {}

  /** Passes, under rbac: its namespace and its ClusterRoleBinding must go. */
  @Order(1)
  @ControllerTest(
      crds = "src/test/resources/crds",
      reconcilers = WidgetReconciler.class,
      rbac = "src/test/resources/rbac/widget-controller")
  public static class Passing {
    @Test
    void passes(@TestNamespace String namespace) {
      passedNamespace = namespace;
    }
  }

  /** Fails with keepNamespaceOnFailure: its namespace and objects must stay. */
  @Order(2)
  @ControllerTest(crds = "src/test/resources/crds", keepNamespaceOnFailure = true)
  public static class KeptOnFailure {
    @Test
    void failsOnPurpose(KubernetesClient client, @TestNamespace String namespace) {
      keptNamespace = namespace;
      client.resources(Widget.class).resource(Widget.named("evidence", "left for you")).create();
      fail("fails on purpose: its namespace is kept");
    }
  }

  /** One namespace and one controller for both tests; both gone after the class. */
  @Order(3)
  @ControllerTest(
      crds = "src/test/resources/crds",
      reconcilers = WidgetReconciler.class,
      namespaceMode = NamespaceMode.PER_CLASS)
  public static class PerClass {
    @Test
    void first(@TestNamespace String namespace, WidgetReconciler reconciler) {
      perClassNamespaces.add(namespace);
      perClassReconcilers.add(reconciler);
    }

    @Test
    void second(@TestNamespace String namespace, WidgetReconciler reconciler) {
      perClassNamespaces.add(namespace);
      perClassReconcilers.add(reconciler);
    }
  }

  @Order(4)
  @ControllerTest(crds = "src/test/resources/crds")
  public static class Checker {

    KubernetesClient client;

    @Test
    void aPassingTestsNamespaceIsDeleted() {
      assertThat(passedNamespace).isNotNull();
      assertDeleted(passedNamespace);
    }

    @Test
    void theClusterRoleBindingsOfRbacAreRemoved() {
      assertThat(
              client
                  .rbac()
                  .clusterRoleBindings()
                  .withName("widget-controller-" + passedNamespace)
                  .get())
          .isNull();
    }

    @Test
    void aFailedTestsNamespaceIsKeptWithItsObjects() {
      Namespace kept = client.namespaces().withName(keptNamespace).get();
      assertThat(kept).isNotNull();
      assertThat(kept.getMetadata().getDeletionTimestamp()).isNull();
      assertThat(
              client.resources(Widget.class).inNamespace(keptNamespace).withName("evidence").get())
          .isNotNull();
      client.namespaces().withName(keptNamespace).delete();
    }

    @Test
    void aPerClassNamespaceHasOneControllerAndIsDeletedAfterTheClass() {
      assertThat(perClassReconcilers).hasSize(1);
      assertThat(perClassNamespaces).hasSize(1);
      assertDeleted(perClassNamespaces.iterator().next());
    }

    private void assertDeleted(String namespace) {
      // The minimal profile has no namespace controller to finish the deletion: Terminating is
      // what "deleted" looks like there.
      Namespace found = client.namespaces().withName(namespace).get();
      if (found != null) {
        assertThat(found.getMetadata().getDeletionTimestamp())
            .as("namespace %s is being deleted", namespace)
            .isNotNull();
      }
    }
  }
}
