package io.github.kubeharness.quarkus;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.integration.TestNamespace;

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
    current = TestNamespace.open(admin, testClass, method);
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
    return namespace.close(controlPlane, admin, failure).orElse(null);
  }
}
