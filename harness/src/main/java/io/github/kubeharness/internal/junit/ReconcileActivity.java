package io.github.kubeharness.internal.junit;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many reconciles the test's JOSDK reconcilers started and finished, and which resources wait
 * for a retry after a failed one: the race explorer waits for no reconcile to be running or due
 * before it judges what the controllers wrote. Counts only (no JOSDK types here: JOSDK is optional
 * on the classpath; {@link JosdkOperator} feeds it).
 */
final class ReconcileActivity {

  private long received;
  private long started;
  private long finished;
  // By resource: JOSDK never reconciles one resource twice at once, and it reports a finish
  // without a start when it skips a resource that left its cache, so counts would not balance.
  private final Set<String> running = ConcurrentHashMap.newKeySet();
  private final Set<String> awaitingRetry = ConcurrentHashMap.newKeySet();
  private final Set<String> lastAttempt = ConcurrentHashMap.newKeySet();

  synchronized void received() {
    received++;
  }

  synchronized void started(String resource) {
    started++;
    running.add(resource);
  }

  synchronized void finished(String resource) {
    finished++;
    running.remove(resource);
  }

  /** A reconcile of {@code resource} begins; {@code last}: its retry policy allows no other. */
  void attempt(String resource, boolean last) {
    if (last) {
      lastAttempt.add(resource);
    } else {
      lastAttempt.remove(resource);
    }
  }

  /**
   * A reconcile of {@code resource} failed: JOSDK retries it later, unless that was its last
   * attempt (a reconciler that asks for no retry is taken as waiting for one until it succeeds).
   */
  void failed(String resource) {
    if (!lastAttempt.contains(resource)) {
      awaitingRetry.add(resource);
    }
  }

  /** A reconcile of {@code resource} succeeded: no retry is due. */
  void succeeded(String resource) {
    awaitingRetry.remove(resource);
  }

  /** Forgets the running and failed reconciles: their controllers stopped, and their retries. */
  synchronized void forgetPending() {
    running.clear();
    awaitingRetry.clear();
    lastAttempt.clear();
  }

  /** Events received, reconciles started and finished: unchanged while the reconcilers idle. */
  synchronized long count() {
    return received + started + finished;
  }

  /** Reconciles started so far. */
  synchronized long reconciles() {
    return started;
  }

  /** Whether a reconcile runs now or a failed one waits for its retry. */
  synchronized boolean busy() {
    return !running.isEmpty() || !awaitingRetry.isEmpty();
  }

  /** The activity of several controllers' sets at one moment. */
  record Summary(long count, long reconciles, boolean busy) {}

  static Summary sum(List<ReconcileActivity> all) {
    long count = 0;
    long reconciles = 0;
    boolean busy = false;
    for (ReconcileActivity one : all) {
      synchronized (one) {
        count += one.count();
        reconciles += one.reconciles();
        busy |= one.busy();
      }
    }
    return new Summary(count, reconciles, busy);
  }
}
