package io.github.kubeharness.internal.controlplane;

/**
 * A control plane whose kube-controller-manager kube-harness runs and can restart. Its garbage
 * collector rediscovers resource types only every 30 s; a restart after installing CRDs makes it
 * collect objects owned by the new kinds at once.
 */
public interface ControllerManagerRestart {

  /** Restarts kube-controller-manager; a no-op when the profile runs none. */
  void restartControllerManager();
}
