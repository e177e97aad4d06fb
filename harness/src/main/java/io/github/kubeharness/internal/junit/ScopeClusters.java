package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.github.kubeharness.Clusters;
import io.github.kubeharness.ControlPlane;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@link Clusters} of one test: its scope on each cluster, by name. A test gets the admin clients
 * it acts with; a controller the controllers' clients of each cluster (their identity or their own
 * admin user, through the fault proxy when the class uses faults), so that the report's API
 * requests tell its writes from the test's.
 *
 * @param scopes the test's scopes, the first cluster's first
 * @param throughFaultProxy whether the controllers' clients go through the fault proxy
 */
record ScopeClusters(
    String namespace, List<ClusterScope> scopes, boolean throughFaultProxy, boolean forControllers)
    implements Clusters {

  @Override
  public List<String> names() {
    List<String> names = new ArrayList<>();
    scopes.forEach(scope -> names.add(scope.name() == null ? "default" : scope.name()));
    return names;
  }

  @Override
  public KubernetesClient client(String name) {
    ClusterScope scope = scope(name);
    return forControllers
        ? scope
            .namespace()
            .controllerClient(throughFaultProxy)
            .adapt(NamespacedKubernetesClient.class)
            .inNamespace(namespace)
        : scope.client();
  }

  @Override
  public ControlPlane controlPlane(String name) {
    return scope(name).cluster().controlPlane();
  }

  private ClusterScope scope(String name) {
    ClusterScope scope = named(name);
    if (scope == null && "default".equals(name)) {
      scope = named(null);
    }
    if (scope == null) {
      throw new IllegalArgumentException(
          "There is no cluster '"
              + name
              + "' in this test: its clusters are "
              + names()
              + " (@ControllerTest(clusters)).");
    }
    return scope;
  }

  private ClusterScope named(String name) {
    for (ClusterScope scope : scopes) {
      if (Objects.equals(scope.name(), name)) {
        return scope;
      }
    }
    return null;
  }
}
