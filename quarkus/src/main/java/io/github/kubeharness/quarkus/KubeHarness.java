package io.github.kubeharness.quarkus;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.integration.KubeHarnessCore;

/**
 * The control plane of a {@link WithKubeHarness} test, and the namespace of the running test
 * method: inject it ({@code @InjectKubeHarness KubeHarness kube;}) and create the test's objects
 * with {@link #client()}. Each test method gets a namespace of its own, deleted after it; a failing
 * test's namespace is reported first (objects, events, API requests) under {@code
 * target/kube-harness/reports/<class>/<method>/}.
 */
public final class KubeHarness {

  // One test at a time, seen from any thread: Quarkus may run the method off its callbacks'.
  private final KubeHarnessCore core;

  KubeHarness(ControlPlane controlPlane, KubernetesClient admin) {
    this.core =
        KubeHarnessCore.perInstance(
            controlPlane,
            admin,
            "No test namespace: KubeHarness.namespace() and client() work inside a test method of"
                + " a @WithKubeHarness class (in @BeforeEach, @Test, @AfterEach).");
  }

  /** The control plane the application runs against. */
  public ControlPlane controlPlane() {
    return core.controlPlane();
  }

  /** The running test method's namespace. */
  public String namespace() {
    return core.namespace();
  }

  /** A cluster-admin client in the running test method's namespace. */
  public KubernetesClient client() {
    return core.client();
  }

  /** The namespace's life around each test method, driven by {@link KubeHarnessCallbacks}. */
  KubeHarnessCore core() {
    return core;
  }
}
