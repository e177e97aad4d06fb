package io.github.kubeharness.internal.faults;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The proxy's record: faults injected and the requests passed on, with their status and time,
 * oldest first and bounded (a long test run keeps its last {@value #CAPACITY} lines).
 */
final class FaultLog {

  static final int CAPACITY = 5000;
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  private record Entry(Instant at, String text) {}

  private final Deque<Entry> entries = new ArrayDeque<>();

  synchronized void add(String text) {
    if (entries.size() == CAPACITY) {
      entries.removeFirst();
    }
    entries.addLast(new Entry(Instant.now(), text));
  }

  /** The lines since {@code since} (all with {@link Instant#MIN}), each stamped with its time. */
  synchronized List<String> since(Instant since) {
    return entries.stream()
        .filter(e -> !e.at().isBefore(since))
        .map(
            e -> TIME.format(LocalTime.ofInstant(e.at(), ZoneId.systemDefault())) + "  " + e.text())
        .toList();
  }
}
