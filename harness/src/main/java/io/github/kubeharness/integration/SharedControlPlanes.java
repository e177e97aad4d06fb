package io.github.kubeharness.integration;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.launch.ControlPlanes;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/**
 * The control planes of this class loader ({@link #getForJvm}: of the JVM), one per backend,
 * profile and version, started on first use and stopped when the JVM exits: a framework keeps
 * several application contexts (Spring's context cache) or restarts its application (Quarkus), and
 * a control plane for each would cost seconds apiece. Their processes and containers die with the
 * JVM even on {@code kill -9} (kube-harness's watchdog).
 */
public final class SharedControlPlanes {

  private record Key(Backend backend, Profile profile, String version) {}

  private static final Map<Key, ControlPlane> RUNNING = new HashMap<>();

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

  /** The running control plane for {@code options}' backend, profile and version. */
  public static synchronized ControlPlane get(ControlPlaneOptions options) {
    Key key = new Key(options.backend(), options.profile(), options.kubernetesVersion());
    ControlPlane running = RUNNING.get(key);
    if (running == null) {
      running = ControlPlanes.create(options);
      running.start();
      if (RUNNING.isEmpty()) {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(SharedControlPlanes::stopAll, "kube-harness-shared-stop"));
      }
      RUNNING.put(key, running);
    }
    return running;
  }

  private static synchronized void stopAll() {
    RUNNING.values().forEach(ControlPlane::stop);
    RUNNING.clear();
  }
}
