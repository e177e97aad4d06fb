package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.CompletableFuture;

/**
 * Components a profile composes onto a local control plane, whichever way it starts ({@link
 * LocalStart}): launched by each start once kube-apiserver serves, waited for beside the controller
 * manager's first objects, and set up in this JVM after every start, attached ones included. The
 * simulated profile's is {@link SimulatedComponents}; the others add {@link #NONE}.
 */
interface LocalAddOn {

  /** Nothing added. */
  LocalAddOn NONE = new LocalAddOn() {};

  /** What a launched add-on is waited for with: started as soon as the controller manager runs. */
  @FunctionalInterface
  interface Launched {
    CompletableFuture<Void> ready(KubernetesClient client, long deadline);
  }

  /** This add-on as one start uses it: what it needs resolved (binaries) before anything starts. */
  default LocalAddOn resolved() {
    return this;
  }

  /**
   * Launches its processes on {@code attempt}'s run, once {@code apiServer} is ready and the
   * default namespace exists, before the controller manager launches.
   */
  default Launched launch(StartAttempt attempt, ApiServer apiServer) {
    return (client, deadline) -> CompletableFuture.completedFuture(null);
  }

  /** After every start, this JVM's own or attached: what runs in this JVM. */
  default void started(LocalPlane plane) {}

  /** Attached to a control plane another JVM kept: what this JVM's settings ask of it. */
  default void attached(LocalPlane plane) {}
}
