package io.github.kubeharness.quickstart;

// docs/migrating-from-josdk-extension.md shows the region below as the "before". It compiles in
// make test (operator-framework-junit-5 5.2.3, the bench's peer) but does not run there (no IT
// suffix): the extension runs against whatever cluster ~/.kube/config names.
// snippet:before
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class JosdkExtensionBefore {

  // Per test: a namespace, the CRD applied, the operator started; all removed after the test.
  @RegisterExtension
  LocallyRunOperatorExtension operator =
      LocallyRunOperatorExtension.builder()
          .withReconciler(new QuickStartIT.GreetingReconciler())
          .withAdditionalCRD("src/test/resources/quickstart/greetings.example.com.yaml")
          .build();

  @Test
  void aGreetingGetsAConfigMapWithItsMessage() {
    operator.create(QuickStartIT.Greeting.saying("hello", "Hello, world"));

    ConfigMap configMap =
        operator
            .getKubernetesClient()
            .configMaps()
            .inNamespace(operator.getNamespace())
            .withName("hello")
            .waitUntilCondition(c -> c != null, 30, TimeUnit.SECONDS);
    assertThat(configMap.getData()).containsEntry("message", "Hello, world");
  }
}
// end-snippet
