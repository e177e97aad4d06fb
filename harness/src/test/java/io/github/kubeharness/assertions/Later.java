package io.github.kubeharness.assertions;

import java.time.Duration;

/**
 * Runs an action on another thread after a delay, standing in for a controller that acts while the
 * test waits. {@link #close()} joins the thread and rethrows what the action threw, so no helper
 * thread outlives its test and a failing helper fails the test.
 */
final class Later implements AutoCloseable {

  private final Thread thread;
  private volatile Throwable failure;

  private Later(Duration delay, ThrowingRunnable action) {
    thread =
        new Thread(
            () -> {
              try {
                // A sleep is fine here: it simulates a controller's reaction time, it is not a
                // readiness check.
                Thread.sleep(delay.toMillis());
                action.run();
              } catch (Throwable t) {
                failure = t;
              }
            },
            "test-later");
    thread.setDaemon(true);
    thread.start();
  }

  /** Starts {@code action} after {@code delay}. */
  static Later after(Duration delay, ThrowingRunnable action) {
    return new Later(delay, action);
  }

  /** Starts {@code action} after 300 ms. */
  static Later soon(ThrowingRunnable action) {
    return after(Duration.ofMillis(300), action);
  }

  /** Waits for the action and rethrows its failure. */
  @Override
  public void close() throws Exception {
    thread.join(Duration.ofSeconds(30).toMillis());
    if (thread.isAlive()) {
      throw new AssertionError("helper action still running after 30 s");
    }
    if (failure instanceof Exception e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
  }

  /** An action that may throw. */
  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }
}
