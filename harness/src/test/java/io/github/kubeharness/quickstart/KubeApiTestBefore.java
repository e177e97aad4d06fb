package io.github.kubeharness.quickstart;

// docs/migrating-from-kube-api-test.md shows the region below as the "before". It compiles in
// make test but does not run there (no IT suffix): kube-api-test downloads its binaries unless told
// where they are, and starts etcd listening on 0.0.0.0, which this project's machines forbid.
// snippet:before
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubeapitest.junit.EnableKubeAPIServer;
import io.fabric8.kubeapitest.junit.KubeConfig;
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

@EnableKubeAPIServer(kubeAPIVersion = "1.36.3") // one API server for this class
class KubeApiTestBefore {

  @KubeConfig static String kubeConfigYaml; // admin kubeconfig of that server

  static KubernetesClient client;
  static Operator operator;

  @BeforeAll
  static void installCrdAndStartOperator() throws Exception {
    client =
        new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeConfigYaml)).build();
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
