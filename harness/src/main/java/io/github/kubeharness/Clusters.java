package io.github.kubeharness;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * The named clusters of a test with several ({@code @ControllerTest(clusters = {"hub",
 * "edge-1"})}), as one test sees them: a client of each, namespaced to the test's namespace (which
 * has the same name in every cluster), and each one's control plane. Injected into tests, and
 * handed to a reconciler or controller whose constructor takes it, so that a controller on one
 * cluster writes to the others (the hub/spoke shape).
 */
public interface Clusters {

  /**
   * The cluster names in declaration order; the first is the default cluster. A class without
   * {@code clusters} has one, named {@code default}.
   */
  List<String> names();

  /** The name of the test's namespace, the same in every cluster. */
  String namespace();

  /**
   * A client of cluster {@code name}, namespaced to the test's namespace there: the test's admin
   * client for a test, the controllers' own for a controller.
   *
   * @throws IllegalArgumentException naming the clusters there are, when there is none of that name
   */
  KubernetesClient client(String name);

  /**
   * The control plane of cluster {@code name}.
   *
   * @throws IllegalArgumentException naming the clusters there are, when there is none of that name
   */
  ControlPlane controlPlane(String name);
}
