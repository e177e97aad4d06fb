package io.github.kubeharness.bench.peers;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.kubeharness.bench.BenchReconciler;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The peer of {@code OverheadScenario}: the same empty tests, the same reconciler and CRD file, run
 * under JOSDK's {@link LocallyRunOperatorExtension} the way its docs and its own integration tests
 * use it (a non-static field: a namespace, the CRD and a started operator per test, all removed
 * after it). Two departures: its client is built from the bench's control plane instead of {@code
 * ~/.kube/config}, one new client per test as its default would be; and it does not wait for the
 * namespace to be gone ({@code waitForNamespaceDeletion(false)}, its own option) — the minimal
 * control plane {@code @ControllerTest} uses by default runs no namespace controller, and waiting
 * would only make the peer slower.
 */
public class JosdkExtensionScenario {

  /** Set by the bench before the run: the control plane the peer runs against. */
  public static Config config;

  static final String CRD = "harness/src/test/resources/crds/widgets.test.kubeharness.io.yaml";

  @RegisterExtension
  LocallyRunOperatorExtension operator =
      LocallyRunOperatorExtension.builder()
          .withKubernetesClient(new KubernetesClientBuilder().withConfig(config).build())
          .withReconciler(new BenchReconciler())
          .withAdditionalCRD(CRD)
          .waitForNamespaceDeletion(false)
          .build();

  @RepeatedTest(11)
  void empty() {}
}
