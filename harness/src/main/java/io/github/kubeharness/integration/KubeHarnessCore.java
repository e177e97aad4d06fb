package io.github.kubeharness.integration;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.github.kubeharness.ControlPlane;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a framework's {@code KubeHarness} gives a test — the control plane, the running test
 * method's namespace and an admin client in it — and the namespace's life around each test method:
 * made before it, reported when it failed, deleted after it. The Spring and the Quarkus {@code
 * KubeHarness} are thin adapters over it; a framework of your own can be one too.
 */
public final class KubeHarnessCore {

  private final ControlPlane controlPlane;
  private final KubernetesClient admin;
  private final Current current;
  private final String outsideATest;

  // Where the running test's namespace is kept: the part the two kinds of core differ in.
  private record Current(Supplier<TestNamespace> read, Consumer<TestNamespace> write) {}

  private KubeHarnessCore(
      ControlPlane controlPlane, KubernetesClient admin, Current current, String outsideATest) {
    this.controlPlane = controlPlane;
    this.admin = admin;
    this.current = current;
    this.outsideATest = outsideATest;
  }

  /**
   * A core whose running test is the calling thread's: for a framework that may run the test
   * methods of one application in parallel (Spring's cached contexts). {@code admin}: a client of
   * {@code controlPlane} that the caller closes; {@code outsideATest}: the error's message when
   * {@link #namespace()} is asked outside a test method (where it works, in the framework's terms).
   */
  public static KubeHarnessCore perThread(
      ControlPlane controlPlane, KubernetesClient admin, String outsideATest) {
    ThreadLocal<TestNamespace> local = new ThreadLocal<>();
    Current current =
        new Current(
            local::get,
            namespace -> {
              if (namespace == null) {
                local.remove();
              } else {
                local.set(namespace);
              }
            });
    return new KubeHarnessCore(controlPlane, admin, current, outsideATest);
  }

  /**
   * A core with one running test at a time, seen from any thread: for a framework that runs one
   * test instance's methods one after the other but maybe not on the thread of its callbacks
   * (Quarkus). As {@link #perThread} otherwise.
   */
  public static KubeHarnessCore perInstance(
      ControlPlane controlPlane, KubernetesClient admin, String outsideATest) {
    AtomicReference<TestNamespace> one = new AtomicReference<>();
    return new KubeHarnessCore(controlPlane, admin, new Current(one::get, one::set), outsideATest);
  }

  /** The control plane the application runs against. */
  public ControlPlane controlPlane() {
    return controlPlane;
  }

  /** The running test's namespace. */
  public String namespace() {
    TestNamespace namespace = current.read().get();
    if (namespace == null) {
      throw new IllegalStateException(outsideATest);
    }
    return namespace.name();
  }

  /** A cluster-admin client in the running test's namespace. */
  public KubernetesClient client() {
    return admin.adapt(NamespacedKubernetesClient.class).inNamespace(namespace());
  }

  /** Creates the namespace of test method {@code method} of {@code testClass}, before it runs. */
  public void beginTest(Class<?> testClass, String method) {
    current.write().accept(TestNamespace.open(admin, testClass, method));
  }

  /**
   * Reports the namespace of a test that failed ({@code failure} not null) and deletes it; returns
   * the report's summary, if one was written, after printing it: a framework's callback cannot add
   * to the failure's message.
   */
  public Optional<String> endTest(Throwable failure) {
    TestNamespace namespace = current.read().get();
    if (namespace == null) {
      return Optional.empty();
    }
    current.write().accept(null);
    Optional<String> summary = namespace.close(controlPlane, admin, failure);
    summary.ifPresent(System.err::println);
    return summary;
  }
}
