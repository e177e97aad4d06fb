package com.example.memcached;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.github.kubeharness.junit.ControllerFactory;

/** A plain fabric8 informer controller: copies ConfigMaps labelled mirror=true to NAME-copy. */
public class MirrorController implements ControllerFactory {

  @Override
  public AutoCloseable start(KubernetesClient client, String namespace) {
    SharedIndexInformer<ConfigMap> informer =
        client
            .configMaps()
            .inNamespace(namespace)
            .withLabel("mirror", "true")
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(ConfigMap cm) {
                    copy(client, cm);
                  }

                  @Override
                  public void onUpdate(ConfigMap old, ConfigMap cm) {
                    copy(client, cm);
                  }

                  @Override
                  public void onDelete(ConfigMap cm, boolean unknownFinalState) {}
                });
    return informer::close;
  }

  private static void copy(KubernetesClient client, ConfigMap cm) {
    client
        .configMaps()
        .inNamespace(cm.getMetadata().getNamespace())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(cm.getMetadata().getName() + "-copy")
                .endMetadata()
                .withData(cm.getData())
                .build())
        .forceConflicts()
        .serverSideApply();
  }
}
