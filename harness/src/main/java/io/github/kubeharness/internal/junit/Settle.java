package io.github.kubeharness.internal.junit;

import io.github.kubeharness.internal.faults.ControllerWrite;
import io.github.kubeharness.internal.faults.TrafficTally;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Waits for the controllers to stop writing, and counts what they wrote meanwhile: the race
 * explorer's judge of convergence. The verdict is in counts: a hot loop is an object written more
 * than {@link #WRITES_PER_OBJECT} times since the mark, however fast or slow. How long to watch is
 * the one thing that cannot be a count (a controller that does nothing sends nothing to count): the
 * controllers are taken as settled once, for {@link #QUIET_MILLIS}, no write was made, no watch
 * event handed to them, and no JOSDK reconcile ran or waited for its retry.
 */
final class Settle {

  /** More writes than this to one object after the mark: a hot loop. */
  static final int WRITES_PER_OBJECT = 10;

  static final long QUIET_MILLIS = 500;
  private static final long POLL_MILLIS = 50;
  // Only so that a run never hangs: a controller still busy after this has not converged.
  private static final long GIVE_UP_MILLIS = 60_000;

  /**
   * What the controllers did after the mark: {@code settled} false when they were still active at
   * the give-up point or wrote one object more than the bound (then watching stopped at once).
   */
  record Outcome(
      boolean settled,
      List<ControllerWrite> writes,
      long events,
      long reconciles,
      String mostWritten,
      int mostWrites,
      boolean reconcilerBusy) {

    boolean hotLoop() {
      return mostWrites > WRITES_PER_OBJECT;
    }

    /** E.g. {@code 12 writes (11 to widgets/status w), 12 watch events, 13 reconciles}. */
    String counts() {
      return writes.size()
          + " write"
          + (writes.size() == 1 ? "" : "s")
          + (mostWrites > 1 ? " (" + mostWrites + " to " + mostWritten + ")" : "")
          + ", "
          + events
          + " watch event"
          + (events == 1 ? "" : "s")
          + " handed to the controllers, "
          + reconciles
          + " reconcile"
          + (reconciles == 1 ? "" : "s");
    }
  }

  private Settle() {}

  /** Where counting starts: the counts at one moment. */
  record Mark(int writes, long events, long reconciles) {}

  static Mark mark(TrafficTally traffic, Supplier<ReconcileActivity.Summary> activity) {
    return new Mark(traffic.writes(), traffic.events(), activity.get().reconciles());
  }

  /**
   * Watches {@code traffic} and {@code activity} until the controllers settle, counting from {@code
   * from}.
   */
  static Outcome watch(
      TrafficTally traffic, Supplier<ReconcileActivity.Summary> activity, Mark from) {
    int fromWrite = from.writes();
    long fromEvents = from.events();
    long fromReconciles = from.reconciles();
    long start = System.nanoTime();
    long quietSince = start;
    long lastWrites = traffic.writes();
    long lastEvents = traffic.events();
    long lastCount = activity.get().count();
    while (true) {
      sleep();
      long now = System.nanoTime();
      List<ControllerWrite> writes = traffic.writesFrom(fromWrite);
      Map<String, Integer> perObject = new LinkedHashMap<>();
      // Creates name no object (a generated name is the API server's): one count per collection.
      writes.forEach(
          w ->
              perObject.merge(
                  w.resource() + (w.name().isEmpty() ? " (creates)" : " " + w.name()),
                  1,
                  Integer::sum));
      Map.Entry<String, Integer> most =
          perObject.entrySet().stream().max(Map.Entry.comparingByValue()).orElse(null);
      ReconcileActivity.Summary summary = activity.get();
      if (traffic.writes() != lastWrites
          || traffic.events() != lastEvents
          || summary.count() != lastCount
          || summary.busy()) {
        quietSince = now;
        lastWrites = traffic.writes();
        lastEvents = traffic.events();
        lastCount = summary.count();
      }
      boolean hot = most != null && most.getValue() > WRITES_PER_OBJECT;
      boolean quietLongEnough = now - quietSince >= QUIET_MILLIS * 1_000_000;
      boolean givenUp = now - start >= GIVE_UP_MILLIS * 1_000_000;
      if (hot || quietLongEnough || givenUp) {
        return new Outcome(
            !hot && quietLongEnough,
            writes,
            traffic.events() - fromEvents,
            summary.reconciles() - fromReconciles,
            most == null ? "" : most.getKey(),
            most == null ? 0 : most.getValue(),
            summary.busy());
      }
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for the controllers to settle", e);
    }
  }
}
