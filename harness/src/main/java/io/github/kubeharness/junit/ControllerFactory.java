package io.github.kubeharness.junit;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Starts a controller that is not a JOSDK reconciler — for example a plain fabric8 informer — for
 * one test. The harness calls {@link #start} before the test and closes the result after it.
 */
@FunctionalInterface
public interface ControllerFactory {

  /**
   * Starts the controller and returns once it is ready to react (informers synced).
   *
   * @param client a client namespaced to the test namespace, acting as the controller's identity
   * @param namespace the namespace to watch
   * @return what stops the controller; it must leave no thread running
   */
  AutoCloseable start(KubernetesClient client, String namespace) throws Exception;
}
