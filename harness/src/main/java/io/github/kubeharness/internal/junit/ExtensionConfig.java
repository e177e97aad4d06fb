package io.github.kubeharness.internal.junit;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import io.github.kubeharness.junit.ControllerFactory;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.NamespaceMode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * A {@link ControllerTest} annotation resolved against the settings: every attribute that was left
 * blank takes the system property, then the environment variable, then the default. Contradictory
 * attributes are rejected here, once, with the fix.
 */
public record ExtensionConfig(
    Class<?> testClass,
    Backend backend,
    Profile profile,
    String kubernetesVersion,
    List<String> crds,
    List<Class<?>> crdClasses,
    List<Class<?>> reconcilers,
    List<Class<? extends ControllerFactory>> controllers,
    NamespaceMode namespaceMode,
    boolean keepNamespaceOnFailure,
    Optional<RbacManifests> rbac) {

  /** Resolves the annotation of {@code testClass}. */
  public static ExtensionConfig of(ControllerTest annotation, Class<?> testClass) {
    String where = "@ControllerTest on " + testClass.getName();
    ControlPlaneOptions.Builder options = ControlPlaneOptions.builder();
    if (!annotation.profile().isBlank()) {
      options.withProfile(Profile.parse(annotation.profile(), where + " (profile)"));
    }
    if (!annotation.kubernetesVersion().isBlank()) {
      options.withKubernetesVersion(annotation.kubernetesVersion());
    }
    ControlPlaneOptions resolved;
    try {
      resolved = options.build();
    } catch (KubeHarnessException e) {
      throw new ExtensionConfigurationException(e.getMessage(), e);
    }
    ExtensionConfig config =
        new ExtensionConfig(
            testClass,
            backend(annotation.backend(), where),
            resolved.profile(),
            resolved.kubernetesVersion(),
            List.of(annotation.crds()),
            List.of(annotation.crdClasses()),
            List.of(annotation.reconcilers()),
            List.of(annotation.controllers()),
            annotation.namespaceMode(),
            annotation.keepNamespaceOnFailure(),
            rbac(annotation, where));
    config.validate(where);
    return config;
  }

  private static Backend backend(String attribute, String where) {
    try {
      return attribute.isBlank()
          ? ControlPlaneOptions.defaults().backend()
          : Backend.parse(attribute, where + " (backend)");
    } catch (KubeHarnessException e) {
      throw new ExtensionConfigurationException(e.getMessage(), e);
    }
  }

  private static Optional<RbacManifests> rbac(ControllerTest annotation, String where) {
    if (annotation.rbac().length == 0) {
      return Optional.empty();
    }
    if (annotation.reconcilers().length == 0 && annotation.controllers().length == 0) {
      throw new ExtensionConfigurationException(
          where
              + " sets rbac but no reconcilers or controllers to run under it. Add reconcilers ="
              + " or controllers =, or remove rbac.");
    }
    String serviceAccount = annotation.serviceAccount();
    if (!serviceAccount.isBlank() && !serviceAccount.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")) {
      throw new ExtensionConfigurationException(
          where + " serviceAccount '" + serviceAccount + "' is not a valid Kubernetes name.");
    }
    return Optional.of(RbacManifests.read(List.of(annotation.rbac()), serviceAccount, where));
  }

  private void validate(String where) {
    // A class that cannot be instantiated fails the test class once, before a cluster starts.
    reconcilers.forEach(
        type -> RunningControllers.checkConstructible(type, where + " reconcilers"));
    controllers.forEach(
        type -> RunningControllers.checkConstructible(type, where + " controllers"));
    if (backend == Backend.EXISTING && !kubernetesVersionIsDefault()) {
      // The version of an existing cluster is whatever it runs; asking for one is a mistake.
      throw new ExtensionConfigurationException(
          where
              + " asks for Kubernetes "
              + kubernetesVersion
              + " on the existing backend, which uses the cluster as it is. Remove"
              + " kubernetesVersion or use the local backend.");
    }
  }

  private boolean kubernetesVersionIsDefault() {
    return kubernetesVersion.equals(ControlPlaneOptions.defaults().kubernetesVersion());
  }

  /** The key of the shared control plane: classes with equal keys share one. */
  public String clusterKey() {
    return backend + "|" + profile + "|" + kubernetesVersion;
  }
}
