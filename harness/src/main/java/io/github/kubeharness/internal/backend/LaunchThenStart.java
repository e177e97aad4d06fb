package io.github.kubeharness.internal.backend;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.Waits;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What one start hands to others that start beside it, twice: as soon as it is launched (usable,
 * not yet proven ready) and once the whole start succeeded; or why it failed. The clusters of
 * {@code @ControllerTest(clusters)} launch their apiservers on the first cluster's etcd when it is
 * launched, while the first cluster's own apiserver still boots, and wait for that cluster's start
 * before their own readiness: a failed first cluster then ends their start at once instead of
 * leaving them to time out on an etcd that is gone.
 *
 * @param <T> what is handed over
 */
final class LaunchThenStart<T> {

  private final CompletableFuture<T> launched = new CompletableFuture<>();
  private final CompletableFuture<T> started = new CompletableFuture<>();

  /** One that will never be launched: the start it stood for ended ({@code why}). */
  static <T> LaunchThenStart<T> ended(RuntimeException why) {
    LaunchThenStart<T> ended = new LaunchThenStart<>();
    ended.failed(why);
    return ended;
  }

  /**
   * Launched: usable by others. Only the first launch counts; a start tried again is seen later.
   */
  void launched(T value) {
    launched.complete(value);
  }

  /** The whole start succeeded with {@code value}. */
  void started(T value) {
    launched.complete(value);
    started.complete(value);
  }

  /** The start failed; those waiting for it get {@code why}. */
  void failed(RuntimeException why) {
    launched.completeExceptionally(why);
    started.completeExceptionally(why);
  }

  /** Whether the start it stands for has ended without being started. */
  boolean hasFailed() {
    return started.isCompletedExceptionally();
  }

  /** Waits until launched; {@code what} names it in a timeout. */
  T awaitLaunched(long deadline, String what) {
    return await(launched, deadline, what + " to be launched");
  }

  /** Waits until the whole start succeeded; {@code what} names it in a timeout. */
  T awaitStarted(long deadline, String what) {
    return await(started, deadline, what + " to start");
  }

  private static <T> T await(CompletableFuture<T> future, long deadline, String what) {
    try {
      return future.get(Math.max(0, Waits.remaining(deadline).toNanos()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new KubeHarnessException(
          "Timed out waiting for "
              + what
              + ". Raise -Dkubeharness.start.timeout.seconds if the machine is slow.",
          e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException cause
          ? cause
          : new KubeHarnessException(what + " failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubeHarnessException("Interrupted while waiting for " + what, e);
    }
  }
}
