package {{package}}.controller;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import {{package}}.api.{{version}}.{{kind}};
import {{package}}.api.{{version}}.{{kind}}Spec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.junit.ControllerTest;
import org.junit.jupiter.api.Test;

/**
 * The {{kind}} reconciler against a real API server (kube-harness), running as the operator's own
 * ServiceAccount bound by config/rbac: a verb missing from config/rbac/role.yaml fails here as it
 * would in a cluster. The standard profile runs kube-controller-manager, so garbage collection is
 * real too.
 */
@ControllerTest(
    crdClasses = {{kind}}.class,
    reconcilers = {{kind}}Reconciler.class,
    profile = "standard",
    rbac = "config/rbac")
class {{kind}}ReconcilerIT {

  KubernetesClient client;

  @Test
  void createsADeploymentOwnedByTheResourceAndReportsIt() {
    {{kind}} resource = client.resource({{kindVar}}("sample", 2, "nginx:1.27-alpine")).create();

    Deployment deployment =
        eventually(client.apps().deployments().withName("sample")).isOwnedBy(resource);
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .isEqualTo("nginx:1.27-alpine");

    eventually(client.resources({{kind}}.class).withName("sample"))
        .satisfies(
            r -> {
              assertThat(r.getStatus()).isNotNull();
              assertThat(r.getStatus().getObservedGeneration())
                  .isEqualTo(r.getMetadata().getGeneration());
            });
  }

  @Test
  void deletingTheResourceDeletesItsDeployment() {
    client.resource({{kindVar}}("doomed", 1, "nginx:1.27-alpine")).create();
    eventually(client.apps().deployments().withName("doomed")).exists();

    client.resources({{kind}}.class).withName("doomed").delete();

    eventually(client.apps().deployments().withName("doomed")).isDeleted();
  }

  @Test
  void theCelRuleRejectsTheLatestTag() {
    KubernetesClientException rejected =
        catchThrowableOfType(
            KubernetesClientException.class,
            () -> client.resource({{kindVar}}("floating", 1, "nginx:latest")).create());

    assertThat(rejected).as("the API server accepted image nginx:latest").isNotNull();
    assertThat(rejected.getCode()).isEqualTo(422);
    assertThat(rejected.getStatus().getMessage())
        .contains("spec.image", "image must name a fixed tag, not :latest");
  }

  private static {{kind}} {{kindVar}}(String name, int replicas, String image) {
    {{kind}} resource = new {{kind}}();
    resource.getMetadata().setName(name);
    {{kind}}Spec spec = new {{kind}}Spec();
    spec.setReplicas(replicas);
    spec.setImage(image);
    resource.setSpec(spec);
    return resource;
  }
}
