package io.github.kubeharness.quickstart;

// The "after" of docs/migrating-from-envtest.md: the same test as its Go "before", run by make test
// against a real API server.
// snippet:after
import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import org.junit.jupiter.api.Test;

@ControllerTest(crds = "src/test/resources/quickstart") // Established and served before the test
class MigratedFromEnvtestIT {

  KubernetesClient client; // admin, namespaced to this test's own namespace (deleted after it)

  @Test
  void aGreetingIsStored() {
    client.resource(QuickStartIT.Greeting.saying("hello", "Hello, world")).create();

    QuickStartIT.Greeting got =
        eventually(client.resources(QuickStartIT.Greeting.class).withName("hello")).exists();
    assertThat(got.getSpec().message).isEqualTo("Hello, world");
  }
}
// end-snippet
