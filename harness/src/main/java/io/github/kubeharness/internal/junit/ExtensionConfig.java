package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.faults.Faults;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * What a {@code @ControllerTest} class asks for, resolved against the settings (every blank
 * attribute takes the system property, then the environment variable, then the default) by the
 * extension. Contradictory values are rejected here, once, with the fix.
 *
 * @param controlPlane the control plane's options, resolved once
 * @param controllers classes whose instances {@code controllerStarter} starts (the public {@code
 *     ControllerFactory} implementations)
 * @param kubernetesVersionAsked the class names a version (not only the settings)
 * @param matrix the versions its {@code @MatrixTest}s run on, as asked (the setting, else the
 *     class's {@code kubernetesVersions}); empty: the one version of {@code controlPlane}
 * @param matrixDeclared the class itself declares a matrix: its tests must all be matrix tests
 * @param namespacePerClass one namespace and one set of controllers for the whole class
 * @param pauseOnFailure whether a failing test waits before its teardown, for someone to look
 * @param webhooks the webhook manifests, served with {@code webhookHandlers} (both or neither)
 * @param seed the seed of every test's random choices ({@code kubeharness.seed}); empty: a new one
 *     per test
 * @param raceTests the class has race tests: its controllers connect through the fault proxy, whose
 *     counts the explorer's invariants judge
 * @param clusters the named clusters and what runs on each (no names: one unnamed cluster)
 */
public record ExtensionConfig(
    Class<?> testClass,
    ControlPlaneOptions controlPlane,
    boolean kubernetesVersionAsked,
    List<String> matrix,
    boolean matrixDeclared,
    List<String> crds,
    List<Class<?>> crdClasses,
    List<Class<?>> reconcilers,
    List<Class<?>> controllers,
    ControllerStarter controllerStarter,
    boolean namespacePerClass,
    boolean keepNamespaceOnFailure,
    FailurePause pauseOnFailure,
    Optional<RbacManifests> rbac,
    List<String> webhooks,
    List<Class<?>> webhookHandlers,
    Optional<Long> seed,
    boolean raceTests,
    ClusterLayout clusters) {

  /** Starts one non-JOSDK controller from an instance of one of {@link #controllers}. */
  @FunctionalInterface
  public interface ControllerStarter {
    AutoCloseable start(Object controller, KubernetesClient client, String namespace)
        throws Exception;
  }

  public ExtensionConfig {
    String where = "@ControllerTest on " + testClass.getName();
    // A class that cannot be instantiated fails the test class once, before a cluster starts.
    reconcilers.forEach(type -> ControllerClasses.checkConstructible(type, where + " reconcilers"));
    controllers.forEach(type -> ControllerClasses.checkConstructible(type, where + " controllers"));
    webhookHandlers.forEach(
        type -> ControllerClasses.checkConstructible(type, where + " webhookHandlers"));
    clusters
        .placements()
        .forEach(
            (name, placement) ->
                placement
                    .all()
                    .forEach(
                        type ->
                            ControllerClasses.checkConstructible(
                                type, where + " @ClusterControllers(cluster = \"" + name + "\")")));
    if (webhooks.isEmpty() != webhookHandlers.isEmpty()) {
      throw new ExtensionConfigurationException(
          where
              + (webhooks.isEmpty()
                  ? " sets webhookHandlers but no webhooks: name the webhook manifests they serve"
                      + " (webhooks = \"config/webhook\")."
                  : " sets webhooks but no webhookHandlers: add the class that registers a handler"
                      + " for each path of the manifests (webhookHandlers = MyWebhooks.class)."));
    }
    if (matrixDeclared && kubernetesVersionAsked) {
      throw new ExtensionConfigurationException(
          where
              + " sets both kubernetesVersion and kubernetesVersions: keep kubernetesVersions for a"
              + " matrix, or kubernetesVersion for one version.");
    }
    // What the class needs of its backend beyond its options (checked when they were built),
    // refused once here, before any cluster starts.
    BackendOptions backend = controlPlane.backendOptions();
    if (!matrix.isEmpty()) {
      backend.require(Backend.Feature.VERSION_MATRIX, where);
    }
    if (clusters.names().size() > 1) {
      backend.require(Backend.Feature.CLUSTERS, where);
    }
    if (asksForFaults(testClass)) {
      backend.require(Backend.Feature.FAULTS, where);
    } else if (raceTests) {
      backend.require(
          Backend.Feature.FAULTS,
          where
              + " (its @RaceTest methods: the explorer counts the controllers' requests through the"
              + " fault proxy)");
    }
    if (!webhooks.isEmpty()) {
      backend.require(Backend.Feature.JVM_WEBHOOKS, where);
    }
    if (controlPlane.backend() == Backend.EXISTING && kubernetesVersionAsked) {
      // The version of an existing cluster is whatever it runs; asking for one is a mistake.
      throw new ExtensionConfigurationException(
          where
              + " asks for Kubernetes "
              + controlPlane.kubernetesVersion()
              + " on the existing backend, which uses the cluster as it is. Remove"
              + " kubernetesVersion or use the local backend.");
    }
  }

  /**
   * Whether the class asks for {@link Faults} (a field or a method parameter of that type) or has
   * race tests: only then do its controllers connect through the fault proxy, whose extra hop (~40
   * ms per test, {@code make bench}) the other classes do not pay.
   */
  public boolean usesFaults() {
    return raceTests || asksForFaults(testClass);
  }

  /** See {@link #usesFaults()}; such a class never shares a kept control plane (reuse). */
  public static boolean asksForFaults(Class<?> testClass) {
    for (Class<?> c = testClass; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        if (field.getType() == Faults.class) {
          return true;
        }
      }
      for (Method method : c.getDeclaredMethods()) {
        if (Arrays.asList(method.getParameterTypes()).contains(Faults.class)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The control plane's options for one version of the matrix. */
  public ControlPlaneOptions controlPlane(String kubernetesVersion) {
    return kubernetesVersion.equals(controlPlane.kubernetesVersion())
        ? controlPlane
        : controlPlane.toBuilder().withKubernetesVersion(kubernetesVersion).build();
  }
}
