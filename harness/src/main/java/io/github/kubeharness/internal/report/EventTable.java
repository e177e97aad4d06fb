package io.github.kubeharness.internal.report;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The events of one namespace as {@code events.txt}: one line per event, oldest first, as {@code
 * time type reason involvedKind/name message}.
 *
 * <p>Only the core v1 API is read: {@code events.k8s.io} serves the same stored objects, so reading
 * both would list every event twice. Events written through either API appear here.
 */
final class EventTable {

  /** One event, flattened for the table and the summary. */
  record Row(Instant time, String type, String reason, String involved, String message, int count) {

    boolean isWarning() {
      return "Warning".equals(type);
    }
  }

  /** The events, oldest first, a problem reading them (or null), and the text of the file. */
  record Result(List<Row> rows, String problem, String text) {

    List<Row> warnings() {
      return rows.stream().filter(Row::isWarning).toList();
    }
  }

  private EventTable() {}

  static Result read(KubernetesClient admin, String namespace) {
    List<Row> rows = new ArrayList<>();
    String problem = null;
    try {
      for (Event event : admin.v1().events().inNamespace(namespace).list().getItems()) {
        rows.add(row(event));
      }
    } catch (RuntimeException e) {
      problem =
          "cannot list events: "
              + ReportText.oneLine(
                  Objects.requireNonNullElse(e.getMessage(), e.getClass().getName()), 300);
    }
    rows.sort(Comparator.comparing(Row::time, Comparator.nullsFirst(Comparator.naturalOrder())));
    return new Result(List.copyOf(rows), problem, render(namespace, rows, problem));
  }

  private static Row row(Event event) {
    ObjectReference involved = event.getInvolvedObject();
    String target =
        involved == null
            ? "-"
            : Objects.requireNonNullElse(involved.getKind(), "?")
                + "/"
                + Objects.requireNonNullElse(involved.getName(), "?");
    return new Row(
        time(event),
        Objects.requireNonNullElse(event.getType(), "-"),
        Objects.requireNonNullElse(event.getReason(), "-"),
        target,
        ReportText.oneLine(event.getMessage(), 2000),
        event.getCount() == null ? 1 : event.getCount());
  }

  // Recorders fill different fields: client-go's legacy recorder the timestamps, the
  // events.k8s.io recorder eventTime and series; the newest observation is what a reader wants.
  private static Instant time(Event event) {
    return Stream.of(
            event.getSeries() == null ? null : micro(event.getSeries().getLastObservedTime()),
            parse(event.getLastTimestamp()),
            micro(event.getEventTime()),
            parse(event.getFirstTimestamp()),
            event.getMetadata() == null ? null : parse(event.getMetadata().getCreationTimestamp()))
        .filter(Objects::nonNull)
        .findFirst()
        .orElse(null);
  }

  private static Instant micro(MicroTime time) {
    return time == null ? null : parse(time.getTime());
  }

  private static Instant parse(String timestamp) {
    if (timestamp == null || timestamp.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(timestamp);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String render(String namespace, List<Row> rows, String problem) {
    StringBuilder out = new StringBuilder();
    out.append("# Events in namespace ")
        .append(namespace)
        .append(", oldest first (")
        .append(ReportText.timesNote())
        .append(")\n");
    if (problem != null) {
      out.append("# ").append(problem).append('\n');
    }
    if (rows.isEmpty()) {
      out.append(problem == null ? "(no events)\n" : "");
      return out.toString();
    }
    List<List<String>> table = new ArrayList<>();
    for (Row row : rows) {
      table.add(
          List.of(
              ReportText.time(row.time()),
              row.type(),
              row.reason(),
              row.involved(),
              row.message() + (row.count() > 1 ? " (x" + row.count() + ")" : "")));
    }
    ReportText.table(table).forEach(line -> out.append(line).append('\n'));
    return out.toString();
  }
}
