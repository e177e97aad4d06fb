package io.github.kubeharness.quickstart;

// The "after" of every migration page (docs/migrating-from-*.md): the same test as their "before",
// run by make test against a real API server.
// snippet:after
import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import org.junit.jupiter.api.Test;

// One API server per JVM (shared by every class that asks for the same one); per test a fresh
// namespace, the operator started; the CRD installed once, Established and served.
@ControllerTest(
    crds = "src/test/resources/quickstart/greetings.example.com.yaml",
    reconcilers = QuickStartIT.GreetingReconciler.class)
class MigratedGreetingIT {

  KubernetesClient client; // admin, already namespaced to this test's namespace

  @Test
  void aGreetingGetsAConfigMapWithItsMessage() {
    client.resource(QuickStartIT.Greeting.saying("hello", "Hello, world")).create();

    ConfigMap configMap = eventually(client.configMaps().withName("hello")).exists();
    assertThat(configMap.getData()).containsEntry("message", "Hello, world");
  }
}
// end-snippet
