package io.github.kubeharness.internal.junit;

import io.github.kubeharness.KubeHarnessException;

/**
 * The tests that use one shared cluster at a time, and a test's turn to have it alone: what keeps a
 * test's {@code apiServerDown} from failing the other tests on the cluster when classes run in
 * parallel (JUnit's parallel execution). Each test holds a {@link Ticket} from before its namespace
 * is created until after it is deleted. A test that takes the API server down first waits until it
 * is the only test on the cluster, and until it ends no other test begins there; run one after
 * another, the wait is never taken.
 *
 * <p>Two tests that both want the cluster alone each leave the sharers while they wait, so that one
 * of them gets it and the other follows when it ends, rather than each waiting for the other.
 */
final class ClusterSharing {

  // Tests on the cluster that do not have it alone (guarded by this).
  private int sharing;
  private Ticket alone;
  private int waitingToBeAlone;

  /** A test's hold on the cluster; waits while another test has it alone. */
  synchronized Ticket enter() {
    while (alone != null || waitingToBeAlone > 0) {
      await("begin a test while another one has the API server down");
    }
    sharing++;
    return new Ticket();
  }

  /** Runs {@code action} with the cluster alone, outside any test (a class's own set-up). */
  void alone(Runnable action) {
    try (Ticket ticket = enter()) {
      ticket.alone();
      action.run();
    }
  }

  private void await(String what) {
    try {
      wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubeHarnessException("Interrupted while waiting to " + what, e);
    }
  }

  /** A test's hold on the cluster; closing it lets the tests that wait for it go on. */
  final class Ticket implements AutoCloseable {
    private boolean isAlone;
    private boolean closed;

    /**
     * Waits until the holder is the only test on the cluster and keeps it so until {@link
     * #close()}; at once when it already is.
     */
    void alone() {
      synchronized (ClusterSharing.this) {
        if (isAlone) {
          return;
        }
        sharing--;
        waitingToBeAlone++;
        try {
          while (sharing > 0 || alone != null) {
            await("take the API server down while other tests use it");
          }
        } catch (RuntimeException e) {
          sharing++;
          throw e;
        } finally {
          waitingToBeAlone--;
          ClusterSharing.this.notifyAll();
        }
        alone = this;
        isAlone = true;
      }
    }

    @Override
    public void close() {
      synchronized (ClusterSharing.this) {
        if (closed) {
          return;
        }
        closed = true;
        if (isAlone) {
          alone = null;
        } else {
          sharing--;
        }
        ClusterSharing.this.notifyAll();
      }
    }
  }
}
