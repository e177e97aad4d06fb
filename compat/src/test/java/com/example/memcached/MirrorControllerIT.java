package com.example.memcached;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.NamespaceMode;
import io.github.kubeharness.junit.TestNamespace;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** A plain informer controller, one namespace and controller for the whole (PER_CLASS) class. */
@ControllerTest(controllers = MirrorController.class, namespaceMode = NamespaceMode.PER_CLASS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MirrorControllerIT {

  KubernetesClient client;
  String namespaceSeenInBeforeAll;

  @BeforeAll
  void seed(KubernetesClient client, @TestNamespace String namespace) {
    namespaceSeenInBeforeAll = namespace;
    client.configMaps().resource(mirrored("seed", "from beforeAll")).create();
  }

  @Test
  void copiesWhatBeforeAllCreated(@TestNamespace String namespace) {
    assertThat(namespace).isEqualTo(namespaceSeenInBeforeAll);
    eventually(client.configMaps().withName("seed-copy"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("v", "from beforeAll"));
  }

  @Test
  void copiesChanges() {
    client.configMaps().resource(mirrored("live", "one")).create();
    eventually(client.configMaps().withName("live-copy")).exists();
    client.configMaps().resource(mirrored("live", "two")).update();
    eventually(client.configMaps().withName("live-copy"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("v", "two"));
  }

  private static io.fabric8.kubernetes.api.model.ConfigMap mirrored(String name, String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(Map.of("mirror", "true"))
        .endMetadata()
        .withData(Map.of("v", value))
        .build();
  }
}
