package io.github.kubeharness.internal.provision;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the control plane's executables are, and where they came from (for messages and the {@code
 * provision} command).
 */
public record Binaries(
    Path etcd,
    Path kubeApiServer,
    Optional<Path> kubeControllerManager,
    Optional<Path> kubeScheduler,
    Optional<Path> kubectl,
    String origin) {

  /**
   * The kube-controller-manager, which the {@code standard} and {@code simulated} profiles need.
   */
  public Path requireControllerManager() {
    return kubeControllerManager.orElseThrow(
        () ->
            new IllegalStateException(
                "kube-controller-manager was not provisioned; resolve with the standard profile"));
  }

  /** The kube-scheduler, which only the {@code simulated} profile needs. */
  public Path requireScheduler() {
    return kubeScheduler.orElseThrow(
        () ->
            new IllegalStateException(
                "kube-scheduler was not provisioned; resolve with the simulated profile"));
  }
}
