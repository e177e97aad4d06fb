package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.TemporaryProperty;
import io.github.kubeharness.internal.reuse.KeptControlPlane;
import io.github.kubeharness.junit.scenarios.PassingWidgetScenario;
import io.github.kubeharness.launch.ControlPlanes;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code @ControllerTest} classes on a kept control plane: they attach to it, and the test
 * namespaces left by a JVM that was killed are deleted; those of live JVMs are left alone.
 */
class ReusedClusterIT {

  @Test
  void classesAttachAndSweepTheNamespacesOfKilledRuns() throws Exception {
    ControlPlaneOptions options =
        ControlPlaneOptions.builder()
            .withBackend(BackendOptions.local().withReuseIdleTimeout(Duration.ofMinutes(10)))
            .withAuditLog(true)
            .withReuse(true)
            .build();
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    try (ControlPlane kept = ControlPlanes.local(options);
        KubernetesClient client = startedClient(kept)) {
      client.resource(namespace("left-by-a-killed-run", gone.pid())).create();
      client.resource(namespace("of-a-live-run", ProcessHandle.current().pid())).create();

      // Kept control planes are the local backend's; the suite may run with another by default.
      try (var reuse = TemporaryProperty.set("kubeharness.reuse", "true");
          var backend = TemporaryProperty.set("kubeharness.backend", "local")) {
        assertThat(ScenarioRunner.run(PassingWidgetScenario.class))
            .allMatch(
                o -> o.status() == org.junit.platform.engine.TestExecutionResult.Status.SUCCESSFUL);
      }

      Namespace killed = client.namespaces().withName("left-by-a-killed-run").get();
      assertThat(killed == null || killed.getMetadata().getDeletionTimestamp() != null)
          .as("the killed run's namespace is deleted")
          .isTrue();
      assertThat(
              client
                  .namespaces()
                  .withName("of-a-live-run")
                  .get()
                  .getMetadata()
                  .getDeletionTimestamp())
          .isNull();
    } finally {
      KeptControlPlane.stopAll(options.cacheDirectory());
    }
  }

  private static KubernetesClient startedClient(ControlPlane controlPlane) {
    controlPlane.start();
    return controlPlane.newClient();
  }

  private static Namespace namespace(String name, long ownerPid) {
    return new NamespaceBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels("kube-harness.io/owner-pid", Long.toString(ownerPid))
        .endMetadata()
        .build();
  }
}
