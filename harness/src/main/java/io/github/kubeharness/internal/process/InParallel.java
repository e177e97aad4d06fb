package io.github.kubeharness.internal.process;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs one task per item at the same time and waits for all of them: for starts that are mostly a
 * child process booting (the clusters beside a first one), which overlap well even on two cores.
 * Each task but the last gets a thread of its own, made here and ended before this returns; not the
 * common pool, which has a single thread on a two-core machine.
 */
public final class InParallel {

  private InParallel() {}

  /**
   * {@code task} applied to every item, the results in the items' order. When tasks fail, the first
   * item's failure is thrown, the later ones attached to it as suppressed, after every task ended.
   *
   * @param threadName the threads' name, followed by the item
   */
  public static <T, R> Map<T, R> map(List<T> items, Function<T, R> task, String threadName) {
    List<Outcome<R>> outcomes = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      T item = items.get(i);
      Outcome<R> outcome = new Outcome<>();
      outcomes.add(outcome);
      Runnable run = () -> outcome.run(() -> task.apply(item));
      if (i == items.size() - 1) {
        run.run();
      } else {
        Thread thread = new Thread(run, threadName + " " + item);
        thread.setDaemon(true);
        thread.start();
        threads.add(thread);
      }
    }
    joinAll(threads);
    Map<T, R> results = new LinkedHashMap<>();
    Throwable failure = null;
    for (int i = 0; i < items.size(); i++) {
      Outcome<R> outcome = outcomes.get(i);
      if (outcome.failure == null) {
        results.put(items.get(i), outcome.result);
      } else if (failure == null) {
        failure = outcome.failure;
      } else {
        failure.addSuppressed(outcome.failure);
      }
    }
    if (failure instanceof Error error) {
      throw error;
    }
    if (failure != null) {
      throw (RuntimeException) failure; // a Function throws nothing else
    }
    return results;
  }

  // An interrupt does not cut the wait short: the tasks start processes, and returning while they
  // still run would leave them to no one. The interrupt is kept for the caller.
  private static void joinAll(List<Thread> threads) {
    boolean interrupted = false;
    for (Thread thread : threads) {
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** What one task returned or threw; written by its thread, read after the join. */
  private static final class Outcome<R> {
    R result;
    Throwable failure;

    void run(Supplier<R> task) {
      try {
        result = task.get();
      } catch (RuntimeException | Error e) {
        failure = e;
      }
    }
  }
}
