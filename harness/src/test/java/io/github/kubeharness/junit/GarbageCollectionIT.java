package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.fixtures.Widget;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * In the standard profile, objects owned by a custom resource are garbage-collected as soon as
 * their owner goes — also for a kind whose CRD was installed a moment ago. (The garbage collector
 * rediscovers resource types only every 30 s; the harness restarts the controller manager after
 * installing new CRDs, so the wait below is far shorter than that period.)
 */
@ControllerTest(crds = "src/test/resources/crds", profile = "standard")
class GarbageCollectionIT {

  KubernetesClient client;
  @TestNamespace String namespace;

  @Test
  void childOfABrandNewKindIsCollectedWithItsOwner() {
    Widget owner = client.resources(Widget.class).resource(Widget.named("owner", "m")).create();
    ConfigMap child =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("child")
            .withNamespace(namespace)
            .endMetadata()
            .build();
    child.addOwnerReference(owner);
    client.configMaps().resource(child).create();

    client.resources(Widget.class).withName("owner").delete();

    eventually(client.configMaps().withName("child")).within(Duration.ofSeconds(15)).isDeleted();
  }
}
