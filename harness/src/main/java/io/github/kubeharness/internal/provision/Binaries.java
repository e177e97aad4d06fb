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
    Optional<Path> kubectl,
    String origin) {

  /** The kube-controller-manager, which only the {@code standard} profile needs. */
  public Path requireControllerManager() {
    return kubeControllerManager.orElseThrow(
        () ->
            new IllegalStateException(
                "kube-controller-manager was not provisioned; resolve with the standard profile"));
  }
}
