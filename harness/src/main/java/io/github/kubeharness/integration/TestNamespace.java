package io.github.kubeharness.integration;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The namespace of one test method: made before it ({@code <class>-<method>-xxxxx}), reported if
 * the test failed (objects, events, API requests under {@code
 * target/kube-harness/reports/<class>/<method>/}) and deleted after it.
 *
 * @param name the namespace
 * @param testClass the test's class, naming its report directory
 * @param method the test method, naming its report directory
 * @param started when the test started: the report's API requests are those since then
 */
public record TestNamespace(String name, Class<?> testClass, String method, Instant started) {

  /** Creates the namespace of {@code testClass.method} with {@code admin}. */
  public static TestNamespace open(KubernetesClient admin, Class<?> testClass, String method) {
    String prefix = (testClass.getSimpleName() + "-" + method).toLowerCase(Locale.ROOT);
    prefix = prefix.replaceAll("[^a-z0-9-]", "-");
    prefix = prefix.substring(0, Math.min(prefix.length(), 50)) + "-";
    String name =
        admin
            .namespaces()
            .resource(
                new NamespaceBuilder()
                    .withNewMetadata()
                    .withGenerateName(prefix)
                    .addToLabels("kube-harness.io/test", "true")
                    .endMetadata()
                    .build())
            .create()
            .getMetadata()
            .getName();
    return new TestNamespace(name, testClass, method, Instant.now());
  }

  /**
   * Reports the namespace when {@code failure} is not null, then deletes it; returns the report's
   * summary when one was written.
   */
  public Optional<String> close(
      ControlPlane controlPlane, KubernetesClient admin, Throwable failure) {
    try {
      if (failure == null) {
        return Optional.empty();
      }
      Path directory = Path.of("target", "kube-harness", "reports", testClass.getName(), method);
      return Optional.of(NamespaceReports.write(controlPlane, name, started, directory));
    } finally {
      admin.namespaces().withName(name).delete();
    }
  }
}
