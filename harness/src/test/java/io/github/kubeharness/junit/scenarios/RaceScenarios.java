package io.github.kubeharness.junit.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.faults.HeldEvents;
import io.github.kubeharness.faults.Watches;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.NamespaceMode;
import io.github.kubeharness.junit.RaceTest;
import io.github.kubeharness.junit.fixtures.RacyChildReconciler;
import io.github.kubeharness.junit.fixtures.Widget;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The racy controller's tests, run by RacesIT under chosen seeds as a user's build runs them. */
public final class RaceScenarios {

  private RaceScenarios() {}

  /** Its plain test: a widget, an edit, one child. Passes on every run. */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = RacyChildReconciler.class)
  public static class PlainScenario {

    KubernetesClient client;
    RacyChildReconciler reconciler;

    @Test
    void oneChildPerWidget() {
      client.resource(Widget.named("w", "one")).create();
      Awaitility.await().until(() -> reconciler.generationsDone.contains(1L));
      edit(client);
      Awaitility.await().until(() -> reconciler.generationsDone.contains(2L));

      assertThat(children(client)).hasSize(1);
    }
  }

  /**
   * The same test with the child's event and the widget's edit held, then released in the seed's
   * order, under seeds 1 to 4: when the edit goes first (seed 1), the controller creates a second
   * child.
   */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = RacyChildReconciler.class)
  public static class HeldDeliveryScenario {

    KubernetesClient client;
    RacyChildReconciler reconciler;
    Faults faults;

    // snippet:races (docs/races.md)
    @RaceTest(runs = 4)
    void oneChildPerWidget() {
      Watches watches = faults.watches();
      HeldEvents childEvents = watches.hold("configmaps");
      client.resource(Widget.named("w", "one")).create();
      Awaitility.await().until(childEvents::count, held -> held == 1); // the child's ADDED

      HeldEvents widgetEvents = watches.hold("widgets");
      edit(client);
      Awaitility.await().until(widgetEvents::count, held -> held == 1); // the edit's MODIFIED
      watches.releaseAll(); // both, in the order the seed draws

      Awaitility.await().until(() -> reconciler.generationsDone.contains(2L));
      assertThat(children(client)).hasSize(1);
    }
    // end-snippet
  }

  /** A race test where its runs cannot each have a namespace: refused, naming the fix. */
  @ControllerTest(backend = "local", namespaceMode = NamespaceMode.PER_CLASS)
  public static class PerClassRaceTestScenario {

    @RaceTest(runs = 2)
    void cannotRun() {}
  }

  private static void edit(KubernetesClient client) {
    client
        .resources(Widget.class)
        .withName("w")
        .edit(
            w -> {
              w.getSpec().message = "two";
              return w;
            });
  }

  private static List<String> children(KubernetesClient client) {
    return client.configMaps().list().getItems().stream()
        .map(ConfigMap::getMetadata)
        .filter(m -> !m.getOwnerReferences().isEmpty())
        .map(m -> m.getName())
        .toList();
  }
}
