package io.github.kubeharness.spring;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.integration.KubeHarnessCore;

/**
 * The control plane of a context made with {@link EnableKubeHarness}, and the namespace of the
 * running test: inject it ({@code @Autowired KubeHarness kube}) and create the test's objects with
 * {@link #client()}. Each test method gets a namespace of its own, deleted after it; a failing
 * test's namespace is reported first (objects, events, API requests) under {@code
 * target/kube-harness/reports/<class>/<method>/}.
 */
public final class KubeHarness implements AutoCloseable {

  private final KubernetesClient admin;
  // Per thread: a cached context may serve test methods that run in parallel.
  private final KubeHarnessCore core;

  KubeHarness(ControlPlane controlPlane) {
    this.admin = controlPlane.newClient();
    this.core =
        KubeHarnessCore.perThread(
            controlPlane,
            admin,
            "No test namespace: KubeHarness.namespace() and client() work inside a test method of"
                + " a class with @EnableKubeHarness (in @BeforeEach, @Test, @AfterEach).");
  }

  /** The control plane the application runs against. */
  public ControlPlane controlPlane() {
    return core.controlPlane();
  }

  /** The running test's namespace. */
  public String namespace() {
    return core.namespace();
  }

  /** A cluster-admin client in the running test's namespace. */
  public KubernetesClient client() {
    return core.client();
  }

  KubeHarnessCore core() {
    return core;
  }

  @Override
  public void close() {
    admin.close();
  }
}
