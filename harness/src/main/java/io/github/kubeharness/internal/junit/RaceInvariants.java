package io.github.kubeharness.internal.junit;

import io.github.kubeharness.internal.faults.ControllerWrite;
import io.github.kubeharness.internal.faults.ProxyFaults;
import io.github.kubeharness.internal.faults.TrafficTally;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The race explorer's checks after a run whose body passed, in this order: the run's faults end
 * (its holds deliver what they held, its rules go); the controllers must settle without writing one
 * object over and over ({@code CONVERGES}); the children they made must have their owners and no
 * twins ({@code NO_ORPHANS}, {@code NO_DUPLICATE_CHILDREN}); then the controllers restart — each
 * converged object is reconciled afresh from an empty cache, as after an operator's restart — and
 * must change nothing ({@code RECONCILE_AGAIN_WRITES_NOTHING}). Every count comes from the fault
 * proxy, which sees each request the controllers make. The names are those of the public {@code
 * RaceTest.Invariant}, which a test turns one off with.
 */
final class RaceInvariants {

  private RaceInvariants() {}

  /**
   * The failure naming each broken invariant of {@code checks} with its counts, or empty; a check
   * that could not be made is a failure too, naming the run's {@code seed}.
   */
  static Optional<AssertionError> after(TestScope scope, RaceChecks checks, long seed) {
    try {
      return check(scope, checks, seed);
    } catch (RuntimeException e) {
      return Optional.of(
          new AssertionError(
              "The race explorer could not check its invariants under seed "
                  + seed
                  + ": "
                  + e.getMessage(),
              e));
    }
  }

  private static Optional<AssertionError> check(TestScope scope, RaceChecks checks, long seed) {
    if (!checks.any()) {
      return Optional.empty();
    }
    // The counts are those of the first cluster's proxy session, which the controllers go through.
    ProxyFaults faults = scope.first().faults().open();
    TrafficTally traffic = faults.traffic();
    // The schedule ends with the body: what is still held is delivered, the rules end.
    faults.clear();
    List<String> failures = new ArrayList<>();
    Settle.Outcome settling =
        Settle.watch(traffic, scope::activity, Settle.mark(traffic, scope::activity));
    if (!settling.settled() && checks.converges()) {
      failures.add(notConverged(settling, "after the test body"));
    }
    OwnedObjects before =
        OwnedObjects.read(scope.first().client(), traffic.collections(), traffic.createdInto());
    if (checks.noOrphans()) {
      List<String> orphans = before.orphans();
      if (!orphans.isEmpty()) {
        failures.add(
            "NO_ORPHANS: "
                + orphans.size()
                + " child"
                + (orphans.size() == 1 ? "" : "ren")
                + " the controllers made name an owner that is not there: "
                + String.join("; ", orphans)
                + ". A child made for an owner read from a stale cache (deleted or replaced"
                + " meanwhile) outlives it. Where nothing collects garbage (the minimal profile)"
                + " and the test deletes owners, turn the check off: @RaceTest(skip ="
                + " Invariant.NO_ORPHANS).");
      }
    }
    if (checks.noDuplicateChildren()) {
      List<String> duplicates = before.duplicates();
      if (!duplicates.isEmpty()) {
        failures.add(
            "NO_DUPLICATE_CHILDREN: "
                + "the controllers made the same child more than once: "
                + String.join("; ", duplicates)
                + ". A controller that creates a child whenever its cache shows none makes a"
                + " second one when the first's event has not reached the cache yet; give the"
                + " child a fixed name (a second create then fails with 409) or look it up with a"
                + " consistent read. Where several such children are meant, give them different"
                + " labels, or turn the check off: @RaceTest(skip ="
                + " Invariant.NO_DUPLICATE_CHILDREN).");
      }
    }
    if (settling.settled() && checks.reconcileAgainWritesNothing()) {
      Settle.Mark restart = Settle.mark(traffic, scope::activity);
      scope.restartControllers();
      Settle.Outcome again = Settle.watch(traffic, scope::activity, restart);
      OwnedObjects after =
          OwnedObjects.read(scope.first().client(), traffic.collections(), traffic.createdInto());
      List<String> changed = changed(before.byPath(), after.byPath(), again.writes());
      if (!again.settled() && checks.converges()) {
        failures.add(notConverged(again, "after the controllers restarted"));
      } else if (!changed.isEmpty()) {
        failures.add(
            "RECONCILE_AGAIN_WRITES_NOTHING: "
                + "the controllers, restarted on converged objects (each reconciled afresh, as"
                + " after an operator's restart), changed "
                + changed.size()
                + " object"
                + (changed.size() == 1 ? "" : "s")
                + ": "
                + String.join("; ", changed)
                + " ("
                + again.counts()
                + " after the restart). A reconcile of an object that is as it should be must"
                + " write nothing: compare before writing, and keep what changes on every"
                + " reconcile (times, counters, the controller's own identity) out of what it"
                + " writes. Where it is meant, turn the check off: @RaceTest(skip ="
                + " Invariant.RECONCILE_AGAIN_WRITES_NOTHING).");
      }
    }
    if (failures.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new AssertionError(
            "Race invariant"
                + (failures.size() == 1 ? "" : "s")
                + " broken under seed "
                + seed
                + ":\n- "
                + String.join("\n- ", failures)));
  }

  private static String notConverged(Settle.Outcome outcome, String when) {
    List<ControllerWrite> writes = outcome.writes();
    List<ControllerWrite> last = writes.subList(Math.max(0, writes.size() - 3), writes.size());
    return "CONVERGES: "
        + when
        + (outcome.hotLoop()
            ? " the controllers wrote "
                + outcome.mostWritten()
                + " "
                + outcome.mostWrites()
                + " times (bound: "
                + Settle.WRITES_PER_OBJECT
                + " writes to one object) and were still writing: "
            : " the controllers were still active after a minute"
                + (outcome.reconcilerBusy()
                    ? " (a reconcile was running, or a failed one waited for its retry)"
                    : "")
                + ": ")
        + outcome.counts()
        + "; the last writes: "
        + last
        + ". A write that triggers the next reconcile, which writes again, is a hot loop: e.g. a"
        + " status field that changes on every reconcile (a time, a counter) with generation-aware"
        + " event filtering off. Where the writes are meant, turn the check off: @RaceTest(skip ="
        + " Invariant.CONVERGES).";
  }

  /**
   * The objects the controllers' accepted {@code writes} changed between {@code before} and {@code
   * after}: created (new in a collection they created in), deleted, or of another resourceVersion.
   * A write the API server took as a no-op keeps the resourceVersion and is not counted.
   */
  private static List<String> changed(
      Map<String, OwnedObjects.Seen> before,
      Map<String, OwnedObjects.Seen> after,
      List<ControllerWrite> writes) {
    Set<String> changed = new LinkedHashSet<>();
    for (ControllerWrite write : writes) {
      if (!write.accepted()) {
        continue;
      }
      if (write.verb().equals("create")) {
        after.values().stream()
            .filter(s -> s.path().startsWith(write.object() + "/"))
            .filter(s -> !before.containsKey(s.path()))
            .forEach(s -> changed.add("created " + s.describe()));
        continue;
      }
      OwnedObjects.Seen was = before.get(write.object());
      OwnedObjects.Seen is = after.get(write.object());
      String what = write.resource() + " " + write.name();
      if (was != null && is == null) {
        changed.add("deleted " + what);
      } else if (was != null && !was.resourceVersion().equals(is.resourceVersion())) {
        changed.add(
            write.verb()
                + " "
                + what
                + " (resourceVersion "
                + was.resourceVersion()
                + " -> "
                + is.resourceVersion()
                + ")");
      } else if (was == null && is != null) {
        changed.add(write.verb() + " " + what + " (not there before)");
      }
    }
    return new ArrayList<>(changed);
  }
}
