package io.github.kubeharness.internal.junit;

import io.github.kubeharness.internal.faults.ProxyFaults;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A test's session of the fault proxy on one cluster: its rules and holds scoped to the test's
 * namespace, its log from when the test started, its random choices drawn from the test's seed.
 * Opened when the test first asks for it (a test that never does costs nothing); its rules and
 * counts end with the test.
 */
final class FaultSession {

  private final SharedCluster cluster;
  private final String namespace;
  private final Instant started;
  private final long seed;
  private ProxyFaults session;
  private ClusterSharing.Ticket ticket;

  FaultSession(SharedCluster cluster, String namespace, Instant started, long seed) {
    this.cluster = cluster;
    this.namespace = namespace;
    this.started = started;
    this.seed = seed;
  }

  /**
   * The session, opened by the first call.
   *
   * @throws RuntimeException the backend's own refusal, naming the backends that have the fault
   *     proxy, when this one has none
   */
  synchronized ProxyFaults open() {
    if (session == null) {
      session =
          cluster
              .faults()
              .orElseThrow(this::refusal)
              .scoped(
                  namespace, started, seed, down -> downtime -> alone(() -> down.accept(downtime)));
    }
    return session;
  }

  /**
   * The test's hold on its cluster, when this is its first cluster; with it, taking the API server
   * down waits until no other test uses it (classes run in parallel) and keeps it so until the test
   * ends.
   */
  synchronized void heldBy(ClusterSharing.Ticket ticket) {
    this.ticket = ticket;
  }

  // Down only while no other test uses the API server: they would fail for no fault of theirs.
  private void alone(Runnable apiServerDown) {
    ClusterSharing.Ticket held;
    synchronized (this) {
      held = ticket;
    }
    if (held == null) {
      cluster.sharing().alone(apiServerDown);
    } else {
      held.alone();
      apiServerDown.run();
    }
  }

  // The control plane says why it has no faults (its backend, or a control plane kept for others).
  private RuntimeException refusal() {
    try {
      cluster.controlPlane().faults();
    } catch (RuntimeException e) {
      return e;
    }
    return new IllegalStateException(
        "The control plane has no fault proxy to scope the test's faults to");
  }

  long seed() {
    return seed;
  }

  /** The seed of the test's random choices, when it opened the session. */
  synchronized Optional<Long> seedInUse() {
    return session == null ? Optional.empty() : Optional.of(seed);
  }

  /** What the fault proxy logged since the test started; empty without the proxy. */
  List<String> log() {
    return cluster.faults().map(f -> f.logSince(started)).orElse(List.of());
  }

  /** Ends the session: what is still held is delivered, the rules go, the counts are forgotten. */
  synchronized void end() {
    if (session != null) {
      session.clear();
      session.forgetTraffic();
    }
  }
}
