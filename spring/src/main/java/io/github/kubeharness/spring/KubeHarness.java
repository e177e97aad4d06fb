package io.github.kubeharness.spring;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.NamespaceReports;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/**
 * The control plane of a context made with {@link EnableKubeHarness}, and the namespace of the
 * running test: inject it ({@code @Autowired KubeHarness kube}) and create the test's objects with
 * {@link #client()}. Each test method gets a namespace of its own, deleted after it; a failing
 * test's namespace is reported first (objects, events, API requests) under {@code
 * target/kube-harness/reports/<class>/<method>/}.
 */
public final class KubeHarness implements AutoCloseable {

  private final ControlPlane controlPlane;
  private final KubernetesClient admin;
  private final ThreadLocal<TestNamespace> current = new ThreadLocal<>();

  private record TestNamespace(String name, Instant started) {}

  KubeHarness(ControlPlane controlPlane) {
    this.controlPlane = controlPlane;
    this.admin = controlPlane.newClient();
  }

  /** The control plane the application runs against. */
  public ControlPlane controlPlane() {
    return controlPlane;
  }

  /** The running test's namespace. */
  public String namespace() {
    TestNamespace namespace = current.get();
    if (namespace == null) {
      throw new IllegalStateException(
          "No test namespace: KubeHarness.namespace() and client() work inside a test method of a"
              + " class with @EnableKubeHarness (in @BeforeEach, @Test, @AfterEach).");
    }
    return namespace.name();
  }

  /** A cluster-admin client in the running test's namespace. */
  public KubernetesClient client() {
    return admin.adapt(NamespacedKubernetesClient.class).inNamespace(namespace());
  }

  /** Creates the namespace of a test method; called before it runs. */
  void beginTest(Class<?> testClass, String method) {
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
    current.set(new TestNamespace(name, Instant.now()));
  }

  /**
   * Reports the namespace of a test that failed and deletes it; returns the report's summary, if
   * one was written.
   */
  String endTest(Class<?> testClass, String method, Throwable failure) {
    TestNamespace namespace = current.get();
    if (namespace == null) {
      return null;
    }
    current.remove();
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

  @Override
  public void close() {
    admin.close();
  }
}
