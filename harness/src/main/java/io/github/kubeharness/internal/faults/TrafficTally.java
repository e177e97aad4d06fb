package io.github.kubeharness.internal.faults;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the controllers did in one namespace through the fault proxy ({@link ControllerTraffic}).
 * Read while the controllers run: every read is a copy.
 */
public final class TrafficTally {

  /** The writes kept one by one; past that only counted (a hot loop's tail). */
  static final int KEPT_WRITES = 10_000;

  private final List<ControllerWrite> writes = new ArrayList<>();
  private final Set<String> collections = new LinkedHashSet<>();
  private final Set<String> createdInto = new LinkedHashSet<>();
  private int writeCount;
  private long requests;
  private long events;

  synchronized void write(ControllerWrite write, String collection) {
    writeCount++;
    if (writes.size() < KEPT_WRITES) {
      writes.add(write);
    }
    collections.add(collection);
    if (write.verb().equals("create") && write.accepted()) {
      createdInto.add(collection);
    }
  }

  synchronized void request() {
    requests++;
  }

  synchronized void watching(String collection) {
    collections.add(collection);
  }

  synchronized void event() {
    events++;
  }

  /** How many writes the controllers made in the namespace. */
  public synchronized int writes() {
    return writeCount;
  }

  /** The writes from the {@code from}-th on (as kept: the first {@value #KEPT_WRITES}). */
  public synchronized List<ControllerWrite> writesFrom(int from) {
    return from >= writes.size() ? List.of() : List.copyOf(writes.subList(from, writes.size()));
  }

  /** How many object events the proxy handed the controllers about the namespace's objects. */
  public synchronized long events() {
    return events;
  }

  /** Writes, other requests and events: unchanged while the controllers do nothing. */
  public synchronized long activity() {
    return writeCount + requests + events;
  }

  /** The collections (paths) the controllers watched or wrote to, first seen first. */
  public synchronized List<String> collections() {
    return List.copyOf(collections);
  }

  /** The collections the controllers created objects in. */
  public synchronized Set<String> createdInto() {
    return Set.copyOf(createdInto);
  }
}
