package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.BackendSensitive;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import io.github.kubeharness.junit.scenarios.MissingVerbScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The controller runs as a ServiceAccount bound by its own RBAC manifests, not as admin; with no
 * {@code serviceAccount} set, the one the bindings name.
 */
@BackendSensitive
@ControllerTest(
    crds = "src/test/resources/crds",
    reconcilers = WidgetReconciler.class,
    rbac = "src/test/resources/rbac/widget-controller")
class RbacIT {

  KubernetesClient client;
  @TestNamespace String namespace;

  @Test
  void controllerWorksWithTheVerbsItsManifestsGrant() {
    ClusterRoleBinding binding =
        client.rbac().clusterRoleBindings().withName("widget-controller-" + namespace).get();
    assertThat(binding.getSubjects())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.getName()).isEqualTo("widget-controller");
              assertThat(s.getNamespace()).isEqualTo(namespace);
            });

    client.resources(Widget.class).resource(Widget.named("allowed", "hi")).create();
    eventually(client.configMaps().withName("allowed")).exists();
    eventually(client.resources(Widget.class).withName("allowed")).hasCondition("Ready", "True");
  }

  @Test
  void aMissingVerbFailsTheTestAndTheReportNamesTheDeniedRequest() throws Exception {
    Throwable failure = ScenarioRunner.onlyFailure(ScenarioRunner.run(MissingVerbScenario.class));

    assertThat(failure.getMessage())
        .contains("denied API requests")
        .contains("patch configmaps -> 403");
    Path requests =
        Path.of(
            "target/kube-harness/reports",
            MissingVerbScenario.class.getName(),
            "controllerCannotCreateItsConfigMap",
            "api-requests.txt");
    // The missing verb, on one line with who was denied.
    assertThat(Files.readAllLines(requests))
        .anySatisfy(
            line ->
                assertThat(line)
                    .containsSubsequence(
                        ":widget-controller-readonly", "patch", "configmaps", "-> 403  DENIED"));
  }
}
