package io.github.kubeharness.internal.process;

import io.github.kubeharness.KubeHarnessException;
import java.util.concurrent.Callable;

/** Polls a real condition until a deadline. */
public final class Waits {

  private Waits() {}

  /**
   * Returns when {@code condition} is true; exceptions count as "not yet". Fails at the deadline
   * ({@link System#nanoTime()} based) naming {@code what} and the last error.
   */
  public static void until(String what, long deadline, Callable<Boolean> condition) {
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (Boolean.TRUE.equals(condition.call())) {
          return;
        }
      } catch (Exception e) {
        last = e;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new KubeHarnessException("Interrupted while waiting for " + what, e);
      }
    }
    throw new KubeHarnessException(
        "Timed out waiting for "
            + what
            + (last == null ? "" : " (last error: " + last + ")")
            + ". Raise -Dkubeharness.start.timeout.seconds if the machine is slow.",
        last);
  }
}
