package io.github.kubeharness.quarkus;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.NamespaceReports;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/**
 * The control plane of a {@link WithKubeHarness} test, and the namespace of the running test
 * method: inject it ({@code @InjectKubeHarness KubeHarness kube;}) and create the test's objects
 * with {@link #client()}. Each test method gets a namespace of its own, deleted after it; a failing
 * test's namespace is reported first (objects, events, API requests) under {@code
 * target/kube-harness/reports/<class>/<method>/}.
 */
public final class KubeHarness {

  private final ControlPlane controlPlane;
  private final KubernetesClient admin;
  private TestNamespace current;

  private record TestNamespace(String name, Instant started) {}

  KubeHarness(ControlPlane controlPlane, KubernetesClient admin) {
    this.controlPlane = controlPlane;
    this.admin = admin;
  }

  /** The control plane the application runs against. */
  public ControlPlane controlPlane() {
    return controlPlane;
  }

  /** The running test method's namespace. */
  public synchronized String namespace() {
    if (current == null) {
      throw new IllegalStateException(
          "No test namespace: KubeHarness.namespace() and client() work inside a test method of a"
              + " @WithKubeHarness class (in @BeforeEach, @Test, @AfterEach).");
    }
    return current.name();
  }

  /** A cluster-admin client in the running test method's namespace. */
  public KubernetesClient client() {
    return admin.adapt(NamespacedKubernetesClient.class).inNamespace(namespace());
  }

  /** Creates the namespace of a test method; called by {@link KubeHarnessCallbacks} before it. */
  synchronized void beginTest(Class<?> testClass, String method) {
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
    current = new TestNamespace(name, Instant.now());
  }

  /**
   * Reports the namespace of a test that failed ({@code failure} not null) and deletes it; returns
   * the report's summary, if one was written.
   */
  synchronized String endTest(Class<?> testClass, String method, Throwable failure) {
    TestNamespace namespace = current;
    if (namespace == null) {
      return null;
    }
    current = null;
    try {
      if (failure == null) {
        return null;
      }
      Path directory = Path.of("target", "kube-harness", "reports", testClass.getName(), method);
      return NamespaceReports.write(controlPlane, namespace.name(), namespace.started(), directory);
    } finally {
      admin.namespaces().withName(namespace.name()).delete();
    }
  }
}
