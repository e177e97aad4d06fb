package io.github.kubeharness.quickstart;

// docs/migrating-from-k3s.md shows the region below as the "before". It compiles in make test but
// does not run there (no IT suffix): no k3s image is pulled on the machines make test runs on.
// snippet:before
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import java.io.FileInputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

class K3sBefore {

  static K3sContainer k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.33.4-k3s1"));
  static KubernetesClient client;
  static Operator operator;

  @BeforeAll
  static void startK3sInstallCrdAndStartOperator() throws Exception {
    k3s.start(); // a privileged container running a whole cluster
    client =
        new KubernetesClientBuilder()
            .withConfig(Config.fromKubeconfig(k3s.getKubeConfigYaml()))
            .build();
    try (var crd =
        new FileInputStream("src/test/resources/quickstart/greetings.example.com.yaml")) {
      client.apiextensions().v1().customResourceDefinitions().load(crd).serverSideApply();
    }
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName("greetings.example.com")
        .waitUntilCondition(
            c ->
                c.getStatus() != null
                    && c.getStatus().getConditions().stream()
                        .anyMatch(x -> x.getType().equals("Established")),
            30,
            TimeUnit.SECONDS);
    client
        .resource(new NamespaceBuilder().withNewMetadata().withName("t1").endMetadata().build())
        .create();
    operator = new Operator(o -> o.withKubernetesClient(client));
    operator.register(new QuickStartIT.GreetingReconciler());
    operator.start();
  }

  @AfterAll
  static void stop() {
    operator.stop();
    client.close();
    k3s.stop();
  }

  @Test
  void aGreetingGetsAConfigMapWithItsMessage() {
    client
        .resource(QuickStartIT.Greeting.saying("hello", "Hello, world"))
        .inNamespace("t1")
        .create();

    ConfigMap configMap =
        client
            .configMaps()
            .inNamespace("t1")
            .withName("hello")
            .waitUntilCondition(c -> c != null, 30, TimeUnit.SECONDS);
    assertThat(configMap.getData()).containsEntry("message", "Hello, world");
  }
}
// end-snippet
