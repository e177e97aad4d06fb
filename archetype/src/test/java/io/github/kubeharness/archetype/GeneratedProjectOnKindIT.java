package io.github.kubeharness.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archetype's project released the way its README has it, on kind: {@code make docker-build}
 * (Jib, into the local Docker), the image loaded into the node, {@code make deploy} (kustomize's
 * config/default: CRD, RBAC, the operator's Deployment), the operator running as a pod and
 * reconciling a sample, then {@code make undeploy}. Tagged "kind": it needs the node image of
 * {@code make kind-image}; {@code make test-kind} runs it.
 */
@Tag("kind")
@ControllerTest(backend = "kind")
class GeneratedProjectOnKindIT {

  private static final String SYSTEM = "guestbook-operator-system";
  private static final String MANAGER = "guestbook-operator-controller-manager";

  ControlPlane controlPlane;
  KubernetesClient client;
  @TestNamespace String namespace;
  @TempDir Path tmp;

  @Test
  void deployRunsTheOperatorAsAPodThatReconcilesTheSample() throws Exception {
    GeneratedProject project = GeneratedProject.fromArchetype(tmp);
    Path kubeconfigFile = tmp.resolve("kubeconfig");
    Files.writeString(kubeconfigFile, controlPlane.kubeconfig());
    Files.setPosixFilePermissions(kubeconfigFile, PosixFilePermissions.fromString("rw-------"));
    Map<String, String> kubeconfig = Map.of("KUBECONFIG", kubeconfigFile.toString());
    Docker.requireEngineAndJreBase(project.logs());
    String image = "kube-harness-it/guestbook-operator:kind-" + ProcessHandle.current().pid();
    try {
      project.run("docker-build.log", "make", "docker-build", "IMG=" + image).succeeded();
      controlPlane.loadImage(image);

      project.run(kubeconfig, "deploy.log", "make", "deploy", "IMG=" + image).succeeded();

      await(
          "the operator's Deployment " + SYSTEM + "/" + MANAGER + " ready",
          () -> {
            Deployment manager =
                client.apps().deployments().inNamespace(SYSTEM).withName(MANAGER).get();
            return manager != null
                    && manager.getStatus() != null
                    && Integer.valueOf(1).equals(manager.getStatus().getReadyReplicas())
                ? manager
                : null;
          });
      try (InputStream sample =
          Files.newInputStream(project.dir().resolve("config/samples/webapp_v1_guestbook.yaml"))) {
        client.load(sample).inNamespace(namespace).create();
      }
      Deployment owned =
          await(
              "the sample's Deployment, made by the operator's pod",
              () ->
                  client
                      .apps()
                      .deployments()
                      .inNamespace(namespace)
                      .withName("guestbook-sample")
                      .get());
      assertThat(owned.getMetadata().getOwnerReferences().get(0).getKind()).isEqualTo("Guestbook");
      await(
          "the sample's status.observedGeneration, reported by the operator's pod",
          () -> {
            GenericKubernetesResource guestbook =
                client
                    .genericKubernetesResources("webapp.my.domain/v1", "Guestbook")
                    .inNamespace(namespace)
                    .withName("guestbook-sample")
                    .get();
            return guestbook.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                    && status.get("observedGeneration") != null
                ? status
                : null;
          });

      project.run(kubeconfig, "undeploy.log", "make", "undeploy").succeeded();
      await(
          "namespace " + SYSTEM + " gone after make undeploy",
          () -> client.namespaces().withName(SYSTEM).get() == null ? SYSTEM : null);
    } finally {
      Docker.run(project.logs(), "docker-rmi.log", "docker", "rmi", image);
    }
  }

  private static <T> T await(String what, Supplier<T> value) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (System.nanoTime() < deadline) {
      T found = value.get();
      if (found != null) {
        return found;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError(what + ": not within 3 minutes");
  }
}
