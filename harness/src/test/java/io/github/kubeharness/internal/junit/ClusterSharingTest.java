package io.github.kubeharness.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The tests on one cluster and a test's turn to have it alone, on threads as JUnit's parallel
 * execution runs them: who waits for whom is read from the threads' states, never from a delay.
 */
class ClusterSharingTest {

  private final ClusterSharing sharing = new ClusterSharing();
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<Thread> started = new CopyOnWriteArrayList<>();

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  @Test
  void aTestAloneAtOnceDoesNotWait() {
    try (ClusterSharing.Ticket only = sharing.enter()) {
      only.alone();
      only.alone(); // again: it has it already
    }
    sharing.enter().close(); // and it let go
  }

  @Test
  void aloneWaitsForTheOtherTestsToEnd() throws Exception {
    ClusterSharing.Ticket other = sharing.enter();
    ClusterSharing.Ticket mine = sharing.enter();
    Future<?> alone = run(mine::alone);
    awaitBlocked();
    assertThat(alone).isNotDone();

    other.close();
    alone.get(60, TimeUnit.SECONDS);
    mine.close();
  }

  @Test
  void noTestBeginsWhileOneHasTheClusterAlone() throws Exception {
    ClusterSharing.Ticket mine = sharing.enter();
    mine.alone();
    Future<?> next = run(() -> sharing.enter().close());
    awaitBlocked();
    assertThat(next).isNotDone();

    mine.close();
    next.get(60, TimeUnit.SECONDS);
  }

  @Test
  void twoTestsThatBothWantItAloneEachGetItInTurn() throws Exception {
    ClusterSharing.Ticket first = sharing.enter();
    ClusterSharing.Ticket second = sharing.enter();
    // Each waits for the other to end; had neither left the sharers while waiting, both would wait
    // for ever.
    Future<?> one =
        run(
            () -> {
              first.alone();
              first.close();
            });
    Future<?> two =
        run(
            () -> {
              second.alone();
              second.close();
            });
    one.get(60, TimeUnit.SECONDS);
    two.get(60, TimeUnit.SECONDS);
    sharing.enter().close();
  }

  private Future<?> run(Runnable body) {
    return threads.submit(
        () -> {
          started.add(Thread.currentThread());
          body.run();
        });
  }

  // The thread has started and waits on the sharing's monitor.
  private void awaitBlocked() {
    Awaitility.await()
        .atMost(60, TimeUnit.SECONDS)
        .until(
            () ->
                !started.isEmpty()
                    && started.get(started.size() - 1).getState() == Thread.State.WAITING);
  }
}
