package io.github.kubeharness.quickstart;

// The README's quick start: the region below is shown there verbatim (DocSnippetsTest checks it).
// snippet:quickstart
import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.github.kubeharness.junit.ControllerTest;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.util.Map;
import org.junit.jupiter.api.Test;

@ControllerTest(
    crds = "src/test/resources/quickstart", // CRD files, as kubectl apply takes them
    reconcilers = QuickStartIT.GreetingReconciler.class)
class QuickStartIT {

  KubernetesClient client; // injected: admin, namespaced to this test's own namespace

  @Test
  void aGreetingGetsAConfigMapWithItsMessage() {
    client.resource(Greeting.saying("hello", "Hello, world")).create();

    // Watch-based: returns as soon as the reconciler has written it (default timeout 30 s).
    ConfigMap configMap = eventually(client.configMaps().withName("hello")).exists();
    assertThat(configMap.getData()).containsEntry("message", "Hello, world");
    eventually(client.configMaps().withName("hello"))
        .isOwnedBy(client.resources(Greeting.class).withName("hello").get());
  }

  /** The custom resource: {@code kind: Greeting} in {@code example.com/v1}. */
  @Group("example.com")
  @Version("v1")
  public static class Greeting extends CustomResource<Greeting.Spec, Void> implements Namespaced {
    public static class Spec {
      public String message;
    }

    static Greeting saying(String name, String message) {
      Greeting greeting = new Greeting();
      greeting.setMetadata(new ObjectMetaBuilder().withName(name).build());
      greeting.setSpec(new Spec());
      greeting.getSpec().message = message;
      return greeting;
    }
  }

  /** The controller under test: a JOSDK reconciler, run in-process for each test. */
  public static class GreetingReconciler implements Reconciler<Greeting> {
    @Override
    public UpdateControl<Greeting> reconcile(Greeting greeting, Context<Greeting> context) {
      ConfigMap configMap =
          new ConfigMapBuilder()
              .withNewMetadata()
              .withName(greeting.getMetadata().getName())
              .withNamespace(greeting.getMetadata().getNamespace())
              .endMetadata()
              .withData(Map.of("message", greeting.getSpec().message))
              .build();
      configMap.addOwnerReference(greeting); // deleted with its Greeting
      context.getClient().resource(configMap).serverSideApply();
      return UpdateControl.noUpdate();
    }
  }
}
// end-snippet
