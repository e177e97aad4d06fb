package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.faults.InjectedFault;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Stale reads where a real API server may give them: a list at {@code resourceVersion=0} (any
 * version, from the watch cache) gets the snapshot its rule took, a list with an empty
 * resourceVersion stays consistent, and the window ends with the rule.
 */
@ControllerTest(backend = "local")
class StaleReadsIT {

  private static final ListOptions FROM_CACHE =
      new ListOptionsBuilder().withResourceVersion("0").build();

  KubernetesClient client;
  ControlPlane controlPlane;
  Faults faults;
  @TestNamespace String namespace;

  @Test
  void cachedReadsGoStaleAndConsistentReadsDoNot() {
    client.resource(configMap("first")).create();
    try (KubernetesClient proxied =
        new KubernetesClientBuilder()
            .withConfig(
                faults.route(
                    controlPlane.addUser("stale-reads-it", List.of("system:masters")).config()))
            .build()) {
      InjectedFault stale =
          faults.respond(FaultRule.requests().verbs("list").resource("configmaps").stale());
      assertThat(values(proxied.configMaps().inNamespace(namespace).list(FROM_CACHE).getItems()))
          .containsExactly("first");

      client.resource(configMap("second")).update();

      // From the snapshot: the cache's answer is behind what was written.
      assertThat(values(proxied.configMaps().inNamespace(namespace).list(FROM_CACHE).getItems()))
          .containsExactly("first");
      // An empty resourceVersion asks for the newest: consistent, as the API guarantees.
      assertThat(values(proxied.configMaps().inNamespace(namespace).list().getItems()))
          .containsExactly("second");
      assertThat(stale.hits()).isEqualTo(2);
      assertThat(faults.log()).anyMatch(l -> l.contains("stale     list configmaps"));

      stale.remove();

      // The watch cache itself may lag a moment behind the update.
      Awaitility.await()
          .untilAsserted(
              () ->
                  assertThat(
                          values(
                              proxied
                                  .configMaps()
                                  .inNamespace(namespace)
                                  .list(FROM_CACHE)
                                  .getItems()))
                      .containsExactly("second"));
    }
  }

  private static List<String> values(List<ConfigMap> items) {
    return items.stream()
        .filter(c -> c.getMetadata().getName().equals("c"))
        .map(c -> c.getData().get("v"))
        .toList();
  }

  private static ConfigMap configMap(String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("c")
        .endMetadata()
        .addToData("v", value)
        .build();
  }
}
