package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.github.kubeharness.Clusters;
import io.github.kubeharness.ControlPlane;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@link Clusters} of one test: its scope on each cluster, by name. A test gets the admin clients
 * it acts with; a controller the controllers' clients of each cluster (their identity or their own
 * admin user, through the fault proxy when the class uses faults), so that the report's API
 * requests tell its writes from the test's.
 */
final class ScopeClusters implements Clusters {

  private final String namespace;
  private final Map<String, TestScope> scopes;
  private final boolean forControllers;

  ScopeClusters(String namespace, Map<String, TestScope> scopes, boolean forControllers) {
    this.namespace = namespace;
    this.scopes = scopes;
    this.forControllers = forControllers;
  }

  @Override
  public List<String> names() {
    List<String> names = new ArrayList<>();
    scopes.keySet().forEach(name -> names.add(name == null ? "default" : name));
    return names;
  }

  @Override
  public String namespace() {
    return namespace;
  }

  @Override
  public KubernetesClient client(String name) {
    TestScope scope = scope(name);
    return forControllers
        ? scope.controllerClient().adapt(NamespacedKubernetesClient.class).inNamespace(namespace)
        : scope.client();
  }

  @Override
  public ControlPlane controlPlane(String name) {
    return scope(name).cluster().controlPlane();
  }

  private TestScope scope(String name) {
    TestScope scope = scopes.get(name);
    if (scope == null && "default".equals(name) && scopes.containsKey(null)) {
      scope = scopes.get(null);
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
}
