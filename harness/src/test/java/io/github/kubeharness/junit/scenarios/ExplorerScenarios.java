package io.github.kubeharness.junit.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.faults.HeldEvents;
import io.github.kubeharness.faults.Watches;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.RaceTest;
import io.github.kubeharness.junit.RaceTest.Invariant;
import io.github.kubeharness.junit.fixtures.HotLoopReconciler;
import io.github.kubeharness.junit.fixtures.LostUpdateReconciler;
import io.github.kubeharness.junit.fixtures.RacyChildReconciler;
import io.github.kubeharness.junit.fixtures.StampingReconciler;
import io.github.kubeharness.junit.fixtures.Widget;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Controllers with known race bugs under the explorer's built-in invariants, run by ExplorerIT as a
 * user's build runs them: each bug's plain test passes, its race test fails with the invariant (or
 * the test's own assertion) that the bug breaks.
 */
public final class ExplorerScenarios {

  private ExplorerScenarios() {}

  /** The hot loop's plain test: the status it waits for is there. Passes. */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = HotLoopReconciler.class)
  public static class HotLoopPlainScenario {

    KubernetesClient client;

    @Test
    void statusIsWritten() {
      statusIsWrittenBody(client);
    }
  }

  /**
   * The same body as a race test: the explorer finds the loop in its first run; turned off, the
   * same run passes.
   */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = HotLoopReconciler.class)
  public static class HotLoopScenario {

    KubernetesClient client;

    // snippet:hot-loop-race (docs/races.md)
    @RaceTest(runs = 1)
    void statusIsWritten() {
      client.resource(Widget.named("w", "one")).create();
      Awaitility.await().until(() -> Long.valueOf(1).equals(observedGeneration(client)));
    }

    // end-snippet

    @RaceTest(runs = 1, skip = Invariant.CONVERGES)
    void statusIsWrittenLoopAllowed() {
      statusIsWrittenBody(client);
    }
  }

  /**
   * A controller that writes which instance reconciled last: converges, but its restart writes
   * again. Found in the first run; passes with that invariant off.
   */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = StampingReconciler.class)
  public static class StampingScenario {

    KubernetesClient client;

    @RaceTest(runs = 1)
    void statusIsWritten() {
      statusIsWrittenBody(client);
    }

    @RaceTest(runs = 1, skip = Invariant.RECONCILE_AGAIN_WRITES_NOTHING)
    void statusIsWrittenRestartsAllowed() {
      statusIsWrittenBody(client);
    }
  }

  /**
   * The racy child controller under held delivery, with no assertion of its own: the explorer's
   * duplicate check fails the seed that lets the edit overtake the child's event (seed 1).
   */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = RacyChildReconciler.class)
  public static class DuplicateChildScenario {

    KubernetesClient client;
    RacyChildReconciler reconciler;
    Faults faults;

    @RaceTest(runs = 4)
    void editAWidget() {
      Watches watches = faults.watches();
      HeldEvents childEvents = watches.hold("configmaps");
      client.resource(Widget.named("w", "one")).create();
      Awaitility.await().until(childEvents::count, held -> held == 1);
      HeldEvents widgetEvents = watches.hold("widgets");
      edit(client, "two");
      Awaitility.await().until(widgetEvents::count, held -> held == 1);
      watches.releaseAll();
      Awaitility.await().until(() -> reconciler.generationsDone.contains(2L));
    }
  }

  /**
   * A widget deleted where nothing collects garbage (the minimal profile): its child stays, naming
   * an owner that is gone. The orphan check fails it; with the check off it passes.
   */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = RacyChildReconciler.class)
  public static class OrphanScenario {

    KubernetesClient client;
    RacyChildReconciler reconciler;

    @RaceTest(runs = 1)
    void deleteAWidget() {
      deleteAWidgetBody(client, reconciler);
    }

    @RaceTest(runs = 1, skip = Invariant.NO_ORPHANS)
    void deleteAWidgetNoCollector() {
      deleteAWidgetBody(client, reconciler);
    }
  }

  /** The lost update's plain test: two messages, both kept. Passes on every run. */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = LostUpdateReconciler.class)
  public static class LostUpdatePlainScenario {

    KubernetesClient client;
    LostUpdateReconciler reconciler;

    @Test
    void everyMessageIsKept() {
      twoMessages(client, reconciler);
    }
  }

  /**
   * The same test with half the controller's cacheable reads of widgets answered stale, chosen by
   * the seed: a seed that makes both of its reads stale loses the first message (seed 6).
   */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = LostUpdateReconciler.class)
  public static class LostUpdateScenario {

    KubernetesClient client;
    LostUpdateReconciler reconciler;
    Faults faults;

    // snippet:lost-update-race (docs/races.md)
    @RaceTest(runs = 6)
    void everyMessageIsKept() {
      faults.respond(
          FaultRule.requests().verbs("list").resource("widgets").probability(0.5).stale());
      twoMessages(client, reconciler);
    }
    // end-snippet
  }

  private static void statusIsWrittenBody(KubernetesClient client) {
    client.resource(Widget.named("w", "one")).create();
    Awaitility.await().until(() -> Long.valueOf(1).equals(observedGeneration(client)));
  }

  private static void deleteAWidgetBody(KubernetesClient client, RacyChildReconciler reconciler) {
    client.resource(Widget.named("w", "one")).create();
    Awaitility.await().until(() -> reconciler.generationsDone.contains(1L));
    Awaitility.await()
        .until(
            () ->
                client.configMaps().list().getItems().stream()
                    .anyMatch(c -> !c.getMetadata().getOwnerReferences().isEmpty()));
    client.resources(Widget.class).withName("w").delete();
    Awaitility.await().until(() -> client.resources(Widget.class).withName("w").get() == null);
  }

  private static void twoMessages(KubernetesClient client, LostUpdateReconciler reconciler) {
    client.resource(Widget.named("w", "one")).create();
    Awaitility.await().until(() -> messages(client).contains("one"));
    edit(client, "two");
    Awaitility.await().until(() -> reconciler.generationsDone.contains(2L));
    assertThat(messages(client)).containsExactly("one", "two");
  }

  private static Long observedGeneration(KubernetesClient client) {
    Widget w = client.resources(Widget.class).withName("w").get();
    return w == null || w.getStatus() == null ? null : w.getStatus().observedGeneration;
  }

  private static List<String> messages(KubernetesClient client) {
    Widget w = client.resources(Widget.class).withName("w").get();
    return w == null || w.getStatus() == null || w.getStatus().messages == null
        ? List.of()
        : w.getStatus().messages;
  }

  private static void edit(KubernetesClient client, String message) {
    client
        .resources(Widget.class)
        .withName("w")
        .edit(
            w -> {
              w.getSpec().message = message;
              return w;
            });
  }
}
