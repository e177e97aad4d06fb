package io.github.kubeharness.internal.backend;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.faults.FaultProxy;
import io.github.kubeharness.internal.process.RunDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The local control plane as its start strategies ({@link LocalStart}), their tries and the add-ons
 * see it: what a start registers, connects and hands over ({@link AbstractControlPlane}'s start
 * sequence). {@link LocalControlPlane} is one; owned here, below it, so that the parts it is made
 * of do not depend on it.
 */
interface LocalPlane {

  ControlPlaneOptions options();

  /** The control plane itself, for what takes the public type ({@code Simulation}). */
  ControlPlane controlPlane();

  /** A fresh run directory under {@code root}; a failed try's stays (its logs) until JVM exit. */
  RunDirectory newRunDirectory(Path root);

  /** The current run directory. */
  RunDirectory run();

  /** Registers a started part, closed in reverse order on stop or a failed start. */
  <T extends AutoCloseable> T started(T part);

  /** Closes every started part, newest first, collecting failures into {@code collector}. */
  void stopStarted(RuntimeException collector);

  /** The API server answers at {@code url}: the admin kubeconfig is issued from {@code ca}. */
  void connected(String url, TinyCa ca);

  /** A kubeconfig for {@code user} in {@code groups} at {@code server}, from the run's CA. */
  String kubeconfigFor(String server, String user, List<String> groups);

  KubernetesClient newClient();

  String apiServerUrl();

  Path kubeconfigFile();

  TinyCa ca();

  /** Attached to a control plane another JVM kept; {@code detach} is run on stop. */
  void attached(RunDirectory keptRun, String url, Path kubeconfig, TinyCa ca, Runnable detach);

  /** Handed over to a keeper: nothing started is stopped with this JVM; {@code detach} on stop. */
  void handedOver(Runnable detach);

  /** The fault session's apiserver downtime, one at a time per control plane. */
  void apiServerDown(FaultProxy proxy, ApiServer apiServer, Duration downtime);
}
