package io.github.kubeharness;

import java.util.ServiceLoader;

/**
 * The seam between the public API and the backends: {@link ControlPlane#create} finds
 * kube-harness's backends through {@link ServiceLoader}, so that this package depends on none of
 * their classes. Implemented once, by kube-harness itself; not an extension point for users.
 */
public interface BackendProvider {

  /** A new, not yet started, control plane for {@code options}. */
  ControlPlane create(ControlPlaneOptions options);

  /** The provider registered in {@code META-INF/services}. */
  static BackendProvider find() {
    return ServiceLoader.load(BackendProvider.class, BackendProvider.class.getClassLoader())
        .findFirst()
        .orElseThrow(
            () ->
                new KubeHarnessException(
                    "No kube-harness backend found: META-INF/services/"
                        + BackendProvider.class.getName()
                        + " is missing from the classpath. A shaded or merged jar must keep"
                        + " service files (maven-shade-plugin: ServicesResourceTransformer)."));
  }
}
