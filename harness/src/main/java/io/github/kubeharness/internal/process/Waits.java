package io.github.kubeharness.internal.process;

import io.github.kubeharness.KubeHarnessException;
import java.time.Duration;
import java.util.function.Function;

/**
 * The one way the harness waits for a real condition: poll it, counting exceptions as "not yet",
 * until it holds or a deadline ({@link System#nanoTime()} based) passes. Polls every 10 ms at
 * first, then every 25 ms: every poll interval a component is late by is start-up time users wait.
 */
public final class Waits {

  private static final long FIRST_PAUSE_MILLIS = 10;
  private static final long MAX_PAUSE_MILLIS = 25;

  private Waits() {}

  /** The {@link System#nanoTime()} deadline {@code timeout} from now. */
  public static long deadline(Duration timeout) {
    return System.nanoTime() + timeout.toNanos();
  }

  /** What is left until {@code deadline}, never negative. */
  public static Duration remaining(long deadline) {
    return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
  }

  /**
   * Returns when {@code condition} holds; fails at the deadline naming {@code what} and the last
   * error.
   */
  public static void until(String what, long deadline, HealthCheck condition) {
    poll(
        condition,
        deadline,
        () -> {},
        last ->
            new KubeHarnessException(
                "Timed out waiting for "
                    + what
                    + (last == null ? "" : " (last error: " + last + ")")
                    + ". Raise -Dkubeharness.start.timeout.seconds if the machine is slow.",
                last));
  }

  /**
   * Polls {@code condition} until it holds. Before each poll {@code abortIfHopeless} may throw to
   * end the wait early (a process that exited); at the deadline the exception {@code timedOut}
   * makes of the last error (or null) is thrown.
   */
  public static void poll(
      HealthCheck condition,
      long deadline,
      Runnable abortIfHopeless,
      Function<Exception, RuntimeException> timedOut) {
    Exception last = null;
    long pause = FIRST_PAUSE_MILLIS;
    while (true) {
      abortIfHopeless.run();
      try {
        if (condition.isReady()) {
          return;
        }
        last = null;
      } catch (Exception e) {
        last = e;
      }
      if (System.nanoTime() > deadline) {
        throw timedOut.apply(last);
      }
      sleep(pause);
      pause = Math.min(pause * 2, MAX_PAUSE_MILLIS);
    }
  }

  /** Sleeps; an interrupt ends the wait with an exception and keeps the thread's flag. */
  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubeHarnessException("Interrupted while waiting", e);
    }
  }
}
