package io.github.kubeharness.integration;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.shared.RunningControlPlanes;
import java.lang.reflect.Method;

/**
 * The control planes of this class loader ({@link #getForJvm}: of the JVM), from the registry the
 * JUnit extension uses too: one per set of options that makes two control planes differ (backend,
 * its own options such as images and network, profile, version, ...), started on first use and
 * stopped when the JVM exits. A framework keeps several application contexts (Spring's context
 * cache) or restarts its application (Quarkus), and a control plane for each would cost seconds
 * apiece; a {@code @ControllerTest} class of the same JVM on equal options runs on the same one.
 * Their processes and containers die with the JVM even on {@code kill -9} (kube-harness's
 * watchdog).
 */
public final class SharedControlPlanes {

  private SharedControlPlanes() {}

  /**
   * The running control plane for an annotation's {@code backend}, {@code profile} and {@code
   * kubernetesVersion} (blank: the setting, as {@link AnnotationOptions}), shared by every class
   * loader of the JVM: Quarkus restarts its application in new class loaders, each with its own
   * copy of kube-harness, and a control plane per restart would cost seconds apiece (and the
   * restarted application could not follow it: Quarkus fixes its client's address at the first
   * start). The one registry is the copy of this class on the JVM's class path; a class loader that
   * cannot see that copy keeps its own.
   */
  public static ControlPlane getForJvm(
      String backend, String profile, String kubernetesVersion, String where) {
    // Resolved here first: a wrong attribute fails in the caller's loader, named.
    ControlPlaneOptions options = AnnotationOptions.of(backend, profile, kubernetesVersion, where);
    Class<?> registry = jvmRegistry();
    if (registry == SharedControlPlanes.class) {
      return get(options);
    }
    Object foreign;
    try {
      Method shared =
          registry.getMethod("getForJvm", String.class, String.class, String.class, String.class);
      foreign =
          CrossLoaderControlPlane.call(
              registry.getClassLoader(),
              () -> shared.invoke(null, backend, profile, kubernetesVersion, where));
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(
          where
              + ": the JVM's copy of "
              + SharedControlPlanes.class.getName()
              + " has no getForJvm: the class path holds another kube-harness version than the"
              + " application. Use one kube-harness version in the build.",
          e);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(where + ": " + e, e);
    }
    return CrossLoaderControlPlane.of(foreign);
  }

  private static Class<?> jvmRegistry() {
    try {
      return Class.forName(
          SharedControlPlanes.class.getName(), true, ClassLoader.getSystemClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return SharedControlPlanes.class;
    }
  }

  /**
   * The running control plane of {@code options}, held for the rest of the JVM's life (it stops at
   * exit); one that failed to start is let go, so that the next context asks anew.
   */
  public static ControlPlane get(ControlPlaneOptions options) {
    RunningControlPlanes.Lease lease = RunningControlPlanes.lease(options);
    try {
      return lease.started();
    } catch (RuntimeException e) {
      lease.close();
      throw e;
    }
  }
}
