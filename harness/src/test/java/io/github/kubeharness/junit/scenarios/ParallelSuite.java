package io.github.kubeharness.junit.scenarios;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the classes of {@link ParallelSuiteClasses} record while they run, for ParallelSuiteIT and
 * the bench: each test's body as an interval, its namespace and what it saw (the API server it
 * talked to), and the meeting points of the tests that must run at the same time.
 */
public final class ParallelSuite {

  /**
   * One test's body: {@code test} is {@code Class.method}; {@code seen} what it reported (e.g.
   * {@code apiserver} → its URL).
   */
  public record Ran(
      String test, String namespace, long startNanos, long endNanos, Map<String, String> seen) {}

  /** Every test body that ran since {@link #reset()}. */
  public static final Queue<Ran> RAN = new ConcurrentLinkedQueue<>();

  /** Counted down when the test that fails on purpose has begun. */
  public static volatile CountDownLatch failingStarted = new CountDownLatch(1);

  /** Counted down when the test beside it has had its widget reconciled. */
  public static volatile CountDownLatch reconciledBeside = new CountDownLatch(1);

  /** Counted down when the witness of the API server's restart is polling. */
  public static volatile CountDownLatch witnessPolling = new CountDownLatch(1);

  /** When the test that restarts the API server asked for it (System.nanoTime), 0 before. */
  public static volatile long restartAskedNanos;

  private ParallelSuite() {}

  /** Forgets an earlier run. */
  public static void reset() {
    RAN.clear();
    failingStarted = new CountDownLatch(1);
    reconciledBeside = new CountDownLatch(1);
    witnessPolling = new CountDownLatch(1);
    restartAskedNanos = 0;
  }

  /** A test's body that records itself. */
  public interface Body {
    Map<String, String> run() throws Exception;
  }

  /** Runs {@code body} and records it as test {@code test} in {@code namespace}, passed or not. */
  public static void during(String test, String namespace, Body body) throws Exception {
    long start = System.nanoTime();
    Map<String, String> seen = Map.of();
    try {
      seen = body.run();
    } finally {
      RAN.add(new Ran(test, namespace, start, System.nanoTime(), seen));
    }
  }

  /** Waits for {@code latch} (at most a minute); whether it opened. */
  static boolean await(CountDownLatch latch) throws InterruptedException {
    return latch.await(60, TimeUnit.SECONDS);
  }

  /** The most test bodies that ran at one instant. */
  public static int peakConcurrency(List<Ran> ran) {
    List<long[]> edges = new ArrayList<>();
    for (Ran r : ran) {
      edges.add(new long[] {r.startNanos(), 1});
      edges.add(new long[] {r.endNanos(), -1});
    }
    // At equal times an end comes before a start: touching intervals do not overlap.
    edges.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
    int now = 0;
    int peak = 0;
    for (long[] e : edges) {
      now += (int) e[1];
      peak = Math.max(peak, now);
    }
    return peak;
  }
}
