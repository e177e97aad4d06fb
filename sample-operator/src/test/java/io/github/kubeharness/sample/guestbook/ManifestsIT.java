package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.tools.Kustomize;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every manifest under {@code config/}, rendered per kustomization, is accepted by a real API
 * server (server-side apply, dry run): schema, defaulting and admission all run, nothing is stored.
 * The Guestbook CRD is installed for real, so the sample is validated against it.
 */
@ControllerTest(crdClasses = Guestbook.class, profile = "standard")
class ManifestsIT {

  private static final Path CONFIG = Path.of("config");
  private static final Set<String> CLUSTER_SCOPED =
      Set.of(
          "Namespace",
          "CustomResourceDefinition",
          "ClusterRole",
          "ClusterRoleBinding",
          "MutatingWebhookConfiguration",
          "ValidatingWebhookConfiguration");

  KubernetesClient client;
  @TestNamespace String namespace;
  private final List<String> namespacesCreated = new ArrayList<>();

  @ParameterizedTest(name = "config/{0}")
  @ValueSource(strings = {"crd", "rbac", "manager", "samples", "default"})
  void everyObjectIsAcceptedByTheApiServer(String directory) {
    // The real kustomize (kubectl's), so what is checked is what `make deploy` applies.
    List<GenericKubernetesResource> objects = Kustomize.build(CONFIG.resolve(directory));
    assertThat(objects).isNotEmpty();

    for (GenericKubernetesResource resource : objects) {
      try {
        if (!CLUSTER_SCOPED.contains(resource.getKind())) {
          // no namespace in the manifest: the current one, as with `kubectl apply -k`
          String target =
              resource.getMetadata().getNamespace() == null
                  ? namespace
                  : resource.getMetadata().getNamespace();
          ensureNamespaceExists(target);
          client
              .resource(resource)
              .inNamespace(target)
              .dryRun()
              .fieldManager("manifests-it")
              .forceConflicts()
              .serverSideApply();
        } else {
          client
              .resource(resource)
              .dryRun()
              .fieldManager("manifests-it")
              .forceConflicts()
              .serverSideApply();
        }
      } catch (KubernetesClientException e) {
        throw new AssertionError(
            "config/"
                + directory
                + ": the API server rejected "
                + resource.getKind()
                + " "
                + resource.getMetadata().getName()
                + ": "
                + e.getMessage(),
            e);
      }
    }
  }

  @Test
  void everyFileIsPartOfItsKustomization() throws IOException {
    try (Stream<Path> directories = Files.list(CONFIG)) {
      for (Path directory : directories.filter(Files::isDirectory).toList()) {
        JsonNode kustomization =
            new YAMLMapper().readTree(directory.resolve("kustomization.yaml").toFile());
        List<String> listed = new ArrayList<>();
        kustomization
            .path("resources")
            .forEach(r -> listed.add(directory.resolve(r.asText()).normalize().toString()));
        kustomization
            .path("configurations")
            .forEach(r -> listed.add(directory.resolve(r.asText()).normalize().toString()));
        kustomization
            .path("patches")
            .forEach(
                p -> listed.add(directory.resolve(p.path("path").asText()).normalize().toString()));
        try (Stream<Path> files = Files.list(directory)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
            if (!file.getFileName().toString().equals("kustomization.yaml")) {
              assertThat(listed)
                  .as("resources of %s", directory.resolve("kustomization.yaml"))
                  .contains(file.toString());
            }
          }
        }
      }
    }
  }

  @Test
  void theManagerDeploymentKeepsItsPromises() {
    GenericKubernetesResource manager =
        Kustomize.build(CONFIG.resolve("default")).stream()
            .filter(o -> o.getKind().equals("Deployment"))
            .findFirst()
            .orElseThrow();
    Deployment deployment = Serialization.jsonMapper().convertValue(manager, Deployment.class);
    var pod = deployment.getSpec().getTemplate().getSpec();
    var container = pod.getContainers().get(0);

    assertThat(deployment.getMetadata().getNamespace()).isEqualTo("guestbook-system");
    assertThat(deployment.getMetadata().getName()).isEqualTo("guestbook-controller-manager");
    assertThat(pod.getServiceAccountName()).isEqualTo("guestbook-controller-manager");
    assertThat(container.getImage()).isEqualTo("controller:latest");
    assertThat(container.getArgs()).contains("--leader-elect", "--health-probe-bind-address=:8081");
    assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getResources().getLimits()).containsKeys("cpu", "memory");
    assertThat(container.getEnv())
        .anySatisfy(e -> assertThat(e.getName()).isEqualTo("POD_NAMESPACE"));
  }

  /** Creates a namespace the manifests name (such as {@code system}) for the dry run. */
  private void ensureNamespaceExists(String name) {
    var existing = client.namespaces().withName(name).get();
    if (existing != null && existing.getMetadata().getDeletionTimestamp() == null) {
      return;
    }
    // still terminating after an earlier case deleted it
    eventually(client.namespaces().withName(name)).within(Duration.ofSeconds(60)).isDeleted();
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    namespacesCreated.add(name);
  }

  @AfterEach
  void deleteNamespacesCreated() {
    namespacesCreated.forEach(n -> client.namespaces().withName(n).delete());
  }
}
