package io.github.kubeharness.internal.backend;

import io.github.kubeharness.internal.faults.ProxyFaults;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What one start of a local control plane leaves this JVM to act on.
 *
 * @param apiServer its kube-apiserver; null when attached to a kept control plane (the keeper's)
 * @param controllerManager null when the profile runs none, or when a keeper owns it
 * @param faults the fault session's entry; null on a control plane kept for other JVMs
 * @param auditLog the apiserver's audit log, when it writes one
 * @param etcd where the apiserver stores; null when attached
 * @param keyspace the key prefix it stores under there; null when attached
 */
record LocalProcesses(
    ApiServer apiServer,
    ControllerManager controllerManager,
    ProxyFaults faults,
    Optional<Path> auditLog,
    SharedEtcd etcd,
    Keyspace keyspace) {

  /** Attached to a control plane kept by another JVM: nothing of it is this JVM's process. */
  static LocalProcesses attached(Optional<Path> auditLog) {
    return new LocalProcesses(null, null, null, auditLog, null, null);
  }

  /**
   * Handed over to a keeper: the controller manager is no longer this JVM's to restart (new
   * resource types reach its garbage collector by its own 30 s rediscovery).
   */
  LocalProcesses handedOver() {
    return new LocalProcesses(apiServer, null, faults, auditLog, etcd, keyspace);
  }
}
