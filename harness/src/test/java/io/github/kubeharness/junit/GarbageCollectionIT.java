package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.github.kubeharness.BackendSensitive;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * In the standard profile, objects owned by a custom resource are garbage-collected as soon as
 * their owner goes — also for a kind whose CRD was installed a moment ago, by this class alone. The
 * garbage collector rediscovers resource types only every 30 s; the harness restarts the controller
 * manager after installing new CRDs. The wait below is a third of that period, so a missing restart
 * fails this test in about two runs of three (no hook makes the period itself shorter).
 */
@BackendSensitive
@ControllerTest(crds = "src/test/resources/crds-gc", profile = "standard")
class GarbageCollectionIT {

  private static final ResourceDefinitionContext KEEPERS =
      new ResourceDefinitionContext.Builder()
          .withGroup("gc.kubeharness.io")
          .withVersion("v1")
          .withKind("Keeper")
          .withPlural("keepers")
          .withNamespaced(true)
          .build();

  KubernetesClient client;
  @TestNamespace String namespace;

  @Test
  void childOfABrandNewKindIsCollectedWithItsOwner() {
    GenericKubernetesResource owner =
        client
            .genericKubernetesResources(KEEPERS)
            .resource(
                new GenericKubernetesResourceBuilder()
                    .withApiVersion("gc.kubeharness.io/v1")
                    .withKind("Keeper")
                    .withNewMetadata()
                    .withName("owner")
                    .endMetadata()
                    .build())
            .create();
    ConfigMap child =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("child")
            .withNamespace(namespace)
            .endMetadata()
            .build();
    child.addOwnerReference(owner);
    client.configMaps().resource(child).create();

    client.genericKubernetesResources(KEEPERS).withName("owner").delete();

    eventually(client.configMaps().withName("child")).within(Duration.ofSeconds(10)).isDeleted();
  }
}
