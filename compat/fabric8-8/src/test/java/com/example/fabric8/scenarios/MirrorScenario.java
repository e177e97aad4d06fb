package com.example.fabric8.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.github.kubeharness.junit.ControllerFactory;
import io.github.kubeharness.junit.ControllerTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A plain fabric8 informer controller and its test, as a fabric8 8 project writes them (it copies
 * ConfigMaps labelled mirror=true to NAME-copy). Run by Fabric8EightIT, which expects the class to
 * be refused before any control plane starts.
 */
@ControllerTest(controllers = MirrorScenario.Mirror.class)
public class MirrorScenario {

  KubernetesClient client;

  @Test
  void copiesALabelledConfigMap() {
    client.configMaps().resource(configMap("a", Map.of("mirror", "true"))).create();
    eventually(client.configMaps().withName("a-copy")).exists();
  }

  static ConfigMap configMap(String name, Map<String, String> labels) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(labels)
        .endMetadata()
        .withData(Map.of("v", "1"))
        .build();
  }

  /** The controller: an informer on the test's namespace. */
  public static class Mirror implements ControllerFactory {
    @Override
    public AutoCloseable start(KubernetesClient client, String namespace) {
      return client
              .configMaps()
              .inNamespace(namespace)
              .withLabel("mirror", "true")
              .inform(
                  new ResourceEventHandler<ConfigMap>() {
                    @Override
                    public void onAdd(ConfigMap cm) {
                      client
                          .configMaps()
                          .inNamespace(namespace)
                          .resource(configMap(cm.getMetadata().getName() + "-copy", Map.of()))
                          .forceConflicts()
                          .serverSideApply();
                    }

                    @Override
                    public void onUpdate(ConfigMap old, ConfigMap cm) {}

                    @Override
                    public void onDelete(ConfigMap cm, boolean unknownFinalState) {}
                  })
          ::close;
    }
  }
}
