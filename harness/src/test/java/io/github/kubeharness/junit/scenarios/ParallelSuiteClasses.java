package io.github.kubeharness.junit.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static io.github.kubeharness.junit.fixtures.GadgetWebhooks.gadget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.junit.Cluster;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import io.github.kubeharness.junit.fixtures.FanOutController;
import io.github.kubeharness.junit.fixtures.GadgetWebhooks;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A suite of small {@code @ControllerTest} classes, each doing real work on a real API server, for
 * a run with JUnit's parallel execution (ParallelSuiteIT; the bench's serial-vs-parallel row).
 * Every test creates objects of the same names as the others, in its own namespace, and records its
 * body ({@link ParallelSuite}).
 */
public final class ParallelSuiteClasses {

  /** The classes of the suite, in no particular order. */
  public static final List<Class<?>> ALL =
      List.of(
          FailsWithItsOwnReport.class,
          ApiServerDownAmongOthers.class,
          WidgetsA.class,
          WidgetsB.class,
          WidgetsC.class,
          WidgetsD.class,
          WidgetsE.class,
          WidgetsF.class,
          StandardA.class,
          StandardB.class,
          HubEdgeA.class,
          HubEdgeB.class,
          GadgetsValidated.class);

  /** The one class that fails, on purpose: its report must hold its own namespace only. */
  public static final Class<?> FAILING = FailsWithItsOwnReport.class;

  private ParallelSuiteClasses() {}

  /**
   * A Widget reconciled on the shared minimal control plane, twice per class (two tests that may
   * run at the same time, each in its namespace); the reconciler saw that namespace only.
   */
  @ControllerTest(crds = "src/test/resources/crds", reconcilers = WidgetReconciler.class)
  public abstract static class OnTheSharedControlPlane {

    @Test
    void reconcilesItsWidget(
        KubernetesClient client,
        @TestNamespace String namespace,
        WidgetReconciler reconciler,
        ControlPlane controlPlane)
        throws Exception {
      reconcile(client, namespace, reconciler, controlPlane, "first");
    }

    @Test
    void reconcilesItsWidgetAgain(
        KubernetesClient client,
        @TestNamespace String namespace,
        WidgetReconciler reconciler,
        ControlPlane controlPlane)
        throws Exception {
      reconcile(client, namespace, reconciler, controlPlane, "second");
    }

    private void reconcile(
        KubernetesClient client,
        String namespace,
        WidgetReconciler reconciler,
        ControlPlane controlPlane,
        String test)
        throws Exception {
      String message = getClass().getSimpleName() + " " + test;
      ParallelSuite.during(
          getClass().getSimpleName() + "." + test,
          namespace,
          () -> {
            client.resources(Widget.class).resource(Widget.named("same-name", message)).create();
            eventually(client.configMaps().withName("same-name"))
                .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", message));
            assertThat(reconciler.reconciled).containsOnly(namespace + "/same-name");
            return Map.of("apiserver", controlPlane.apiServerUrl());
          });
    }
  }

  public static class WidgetsA extends OnTheSharedControlPlane {}

  public static class WidgetsB extends OnTheSharedControlPlane {}

  public static class WidgetsC extends OnTheSharedControlPlane {}

  public static class WidgetsD extends OnTheSharedControlPlane {}

  public static class WidgetsE extends OnTheSharedControlPlane {}

  public static class WidgetsF extends OnTheSharedControlPlane {}

  /**
   * On the standard profile's control plane: its controller manager gives each namespace its SA.
   */
  @ControllerTest(profile = "standard")
  public abstract static class OnTheStandardControlPlane {
    @Test
    void theNamespaceGetsItsServiceAccount(
        KubernetesClient client, @TestNamespace String namespace, ControlPlane controlPlane)
        throws Exception {
      ParallelSuite.during(
          getClass().getSimpleName() + ".serviceAccount",
          namespace,
          () -> {
            eventually(client.serviceAccounts().withName("default")).exists();
            return Map.of("apiserver", controlPlane.apiServerUrl());
          });
    }
  }

  public static class StandardA extends OnTheStandardControlPlane {}

  public static class StandardB extends OnTheStandardControlPlane {}

  /**
   * Two clusters, the second ({@code parallel-edge}) an API server of these classes' own: both
   * classes ask for it at once and must get one.
   */
  @ControllerTest(
      backend = "local",
      clusters = {"parallel-hub", "parallel-edge"},
      crds = "src/test/resources/crds",
      controllers = FanOutController.class)
  public abstract static class HubAndEdge {
    @Test
    void theWidgetReachesTheEdge(
        KubernetesClient hub,
        @Cluster("parallel-edge") KubernetesClient edge,
        @Cluster("parallel-edge") ControlPlane edgePlane,
        @TestNamespace String namespace)
        throws Exception {
      ParallelSuite.during(
          getClass().getSimpleName() + ".fanOut",
          namespace,
          () -> {
            hub.resource(Widget.named("same-name", getClass().getSimpleName())).create();
            eventually(edge.configMaps().withName("widget-same-name")).exists();
            return Map.of("edge", edgePlane.apiServerUrl());
          });
    }
  }

  public static class HubEdgeA extends HubAndEdge {}

  public static class HubEdgeB extends HubAndEdge {}

  /** The class's own webhooks, served in this JVM while other classes run. */
  @ControllerTest(
      crds = "src/test/resources/crds-webhooks",
      webhooks = "src/test/resources/webhooks/gadgets",
      webhookHandlers = GadgetWebhooks.class)
  public static class GadgetsValidated {
    @Test
    void defaultedAndValidated(KubernetesClient client, @TestNamespace String namespace)
        throws Exception {
      ParallelSuite.during(
          "GadgetsValidated.webhooks",
          namespace,
          () -> {
            var gadgets = client.genericKubernetesResources("test.kubeharness.io/v1", "Gadget");
            gadgets.resource(gadget("v1", "same-name", Map.of("replicas", 2))).create();
            assertThat(gadgets.withName("same-name").get().getAdditionalProperties().get("spec"))
                .asString()
                .contains("color=blue");
            assertThatThrownBy(
                    () -> gadgets.resource(gadget("v1", "huge", Map.of("replicas", 11))).create())
                .hasMessageContaining("replicas 11 is more than 10");
            return Map.of();
          });
    }
  }

  /**
   * One test restarts the API server while the other, at the same time, uses it: the restart waits
   * until the other test has ended, so that test never sees the port closed.
   */
  @ControllerTest(crds = "src/test/resources/crds", reconcilers = WidgetReconciler.class)
  public static class ApiServerDownAmongOthers {

    @Test
    void restartsTheApiServer(
        Faults faults, KubernetesClient client, @TestNamespace String namespace) throws Exception {
      ParallelSuite.during(
          "ApiServerDownAmongOthers.restart",
          namespace,
          () -> {
            assertThat(ParallelSuite.await(ParallelSuite.witnessPolling))
                .as("the witness ran at the same time")
                .isTrue();
            ParallelSuite.restartAskedNanos = System.nanoTime();
            faults.restartApiServer();
            client.resources(Widget.class).resource(Widget.named("same-name", "after")).create();
            eventually(client.configMaps().withName("same-name")).exists();
            return Map.of();
          });
    }

    @Test
    void usesTheApiServerMeanwhile(KubernetesClient client, @TestNamespace String namespace)
        throws Exception {
      // One try per request: fabric8 would otherwise retry through the restart and hide it.
      try (KubernetesClient once = OneTry.client(client.getConfiguration())) {
        ParallelSuite.during(
            "ApiServerDownAmongOthers.witness",
            namespace,
            () -> {
              ParallelSuite.witnessPolling.countDown();
              long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
              // Polls until three seconds after the restart was asked for (a restart takes about
              // one): long enough to see it, had it not waited for this test.
              while (System.nanoTime() < deadline) {
                long asked = ParallelSuite.restartAskedNanos;
                if (asked != 0 && System.nanoTime() - asked > TimeUnit.SECONDS.toNanos(3)) {
                  return Map.of("sawRestartAsked", "true");
                }
                try {
                  once.configMaps().inNamespace(namespace).list();
                } catch (KubernetesClientException e) {
                  throw new AssertionError("the API server went away during this test", e);
                }
                Thread.sleep(100);
              }
              return Map.of("sawRestartAsked", "false");
            });
      }
    }
  }

  /**
   * One test fails on purpose after the other, at the same time, had the same reconciler class log
   * for its own namespace: the failure's report must show the failing test's namespace only.
   */
  @ControllerTest(crds = "src/test/resources/crds", reconcilers = WidgetReconciler.class)
  public static class FailsWithItsOwnReport {
    @Test
    void expectsAMessageTheControllerNeverWrites(
        KubernetesClient client, @TestNamespace String namespace) throws Exception {
      ParallelSuite.during(
          "FailsWithItsOwnReport.fails",
          namespace,
          () -> {
            ParallelSuite.failingStarted.countDown();
            ParallelSuite.await(ParallelSuite.reconciledBeside);
            client.resources(Widget.class).resource(Widget.named("same-name", "actual")).create();
            eventually(client.configMaps().withName("same-name"))
                .within(Duration.ofSeconds(3))
                .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "expected"));
            return Map.of();
          });
    }

    @Test
    void reconcilesBesideIt(KubernetesClient client, @TestNamespace String namespace)
        throws Exception {
      ParallelSuite.during(
          "FailsWithItsOwnReport.beside",
          namespace,
          () -> {
            assertThat(ParallelSuite.await(ParallelSuite.failingStarted))
                .as("the failing test ran at the same time")
                .isTrue();
            client.resources(Widget.class).resource(Widget.named("same-name", "beside")).create();
            eventually(client.configMaps().withName("same-name")).exists();
            ParallelSuite.reconciledBeside.countDown();
            return Map.of();
          });
    }
  }
}
