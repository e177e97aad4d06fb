package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One state of the watched object as the watch delivered it, with when (since the assertion
 * started) and what changed versus the previous state.
 *
 * @param elapsed time since the assertion started
 * @param change how this state came about
 * @param object the object after the change; for {@link Change#DELETED} its final state as the
 *     watch reported it; null when the initial state is "absent"
 * @param changedPaths field paths changed versus the previous observation (see {@link ObjectDiff})
 */
record Observation<T extends HasMetadata>(
    Duration elapsed, Observation.Change change, T object, List<String> changedPaths) {

  /** How an observed state came about. */
  enum Change {
    /** The state when the watch started: the object, or absent. */
    INITIAL,
    ADDED,
    MODIFIED,
    DELETED
  }

  /** The object as it exists after this observation; null when it does not exist. */
  T current() {
    return change == Change.DELETED ? null : object;
  }

  /** This observation as one history line, e.g. {@code +0.734s MODIFIED (...): data.k}. */
  String line() {
    StringBuilder line = new StringBuilder(elapsed(elapsed)).append(' ');
    if (change == Change.INITIAL) {
      line.append(object == null ? "initial state: absent" : "initial state: present");
    } else {
      line.append(change.name());
    }
    if (object != null) {
      line.append(" (").append(versions(object)).append(')');
    }
    if (!changedPaths.isEmpty()) {
      line.append(": ").append(String.join(", ", changedPaths));
    }
    return line.toString();
  }

  /** {@code resourceVersion 1234, generation 2}; generation only for kinds that have one. */
  static String versions(HasMetadata object) {
    String versions = "resourceVersion " + object.getMetadata().getResourceVersion();
    Long generation = object.getMetadata().getGeneration();
    return generation == null ? versions : versions + ", generation " + generation;
  }

  /** {@code +1.234s}: elapsed time as history lines and failure messages show it. */
  static String elapsed(Duration elapsed) {
    return String.format(Locale.ROOT, "+%.3fs", elapsed.toNanos() / 1e9);
  }
}
