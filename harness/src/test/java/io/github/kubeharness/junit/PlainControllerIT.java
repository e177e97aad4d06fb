package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.fixtures.MirrorControllerFactory;
import org.junit.jupiter.api.Test;

/** A controller that is not JOSDK: a plain fabric8 informer started by a ControllerFactory. */
@ControllerTest(controllers = MirrorControllerFactory.class)
class PlainControllerIT {

  KubernetesClient client;
  MirrorControllerFactory factory;

  @Test
  void informerControllerRunsInTheTestNamespace() {
    assertThat(factory).isNotNull();
    client
        .configMaps()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("source")
                .addToLabels("mirror", "true")
                .endMetadata()
                .addToData("k", "v")
                .build())
        .create();

    eventually(client.configMaps().withName("source-mirror"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("k", "v"));
  }
}
