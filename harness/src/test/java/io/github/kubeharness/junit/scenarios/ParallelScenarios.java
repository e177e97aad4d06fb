package io.github.kubeharness.junit.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Two classes that can only pass when run at the same time, each isolated in its namespace. */
public final class ParallelScenarios {

  /** Both classes arrive here; neither proceeds until the other is running too. */
  public static volatile CountDownLatch bothRunning = new CountDownLatch(2);

  private ParallelScenarios() {}

  static void meetTheOther() throws InterruptedException {
    bothRunning.countDown();
    assertThat(bothRunning.await(60, TimeUnit.SECONDS))
        .as("the other class ran concurrently")
        .isTrue();
  }

  static void sameNamedWidgetsDoNotCollide(
      KubernetesClient client, String namespace, String message) throws InterruptedException {
    client.resources(Widget.class).resource(Widget.named("same-name", message)).create();
    meetTheOther();
    // Each class's controller wrote its own message into its own namespace's ConfigMap: neither
    // overwrote the other's. (That a controller ignores other namespaces entirely is
    // ControllerTestIT.controllersWatchOnlyTheTestNamespace.)
    eventually(client.configMaps().inNamespace(namespace).withName("same-name"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", message));
  }

  @ControllerTest(crds = "src/test/resources/crds", reconcilers = WidgetReconciler.class)
  public static class First {
    @Test
    void test(KubernetesClient client, @TestNamespace String namespace) throws Exception {
      sameNamedWidgetsDoNotCollide(client, namespace, "from first");
    }
  }

  @ControllerTest(crds = "src/test/resources/crds", reconcilers = WidgetReconciler.class)
  public static class Second {
    @Test
    void test(KubernetesClient client, @TestNamespace String namespace) throws Exception {
      sameNamedWidgetsDoNotCollide(client, namespace, "from second");
    }
  }
}
