package io.github.kubeharness.spring;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.integration.TestNamespace;

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
    current.set(TestNamespace.open(admin, testClass, method));
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
    return namespace.close(controlPlane, admin, failure).orElse(null);
  }

  @Override
  public void close() {
    admin.close();
  }
}
