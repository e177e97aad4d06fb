package io.github.kubeharness.assertions;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Runs an action on another thread after a delay or once something happened, standing in for a
 * controller that acts while the test waits. {@link #close()} joins the thread and rethrows what
 * the action threw, so no helper thread outlives its test and a failing helper fails the test.
 */
final class Later implements AutoCloseable {

  private static final Duration LIMIT = Duration.ofSeconds(30);

  private final Thread thread;
  private volatile Throwable failure;

  private Later(ThrowingRunnable wait, ThrowingRunnable action) {
    thread =
        new Thread(
            () -> {
              try {
                wait.run();
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
    // A sleep is fine here: it simulates a controller's reaction time, it is not a readiness
    // check.
    return new Later(() -> Thread.sleep(delay.toMillis()), action);
  }

  /** Starts {@code action} after 300 ms. */
  static Later soon(ThrowingRunnable action) {
    return after(Duration.ofMillis(300), action);
  }

  /**
   * Starts {@code action} once {@code event} completed: for a test whose outcome depends on the
   * order of the action and the event, not on how long either takes.
   */
  static Later once(CompletionStage<?> event, ThrowingRunnable action) {
    return new Later(
        () -> event.toCompletableFuture().get(LIMIT.toMillis(), TimeUnit.MILLISECONDS), action);
  }

  /** Waits for the action and rethrows its failure. */
  @Override
  public void close() throws Exception {
    thread.join(LIMIT.multipliedBy(2).toMillis());
    if (thread.isAlive()) {
      throw new AssertionError("helper action still running after " + LIMIT.multipliedBy(2));
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
