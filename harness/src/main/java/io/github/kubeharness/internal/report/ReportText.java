package io.github.kubeharness.internal.report;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** Text helpers shared by the report's files: time stamps, single-line values, aligned columns. */
final class ReportText {

  // Local time, as logback's default pattern prints it, so report lines line up with
  // controller.log; the zone and date go into each file's header.
  private static final ZoneId ZONE = ZoneId.systemDefault();
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZONE);
  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZONE);

  private ReportText() {}

  /** {@code 09:14:02.123} in the system time zone, or {@code -} when unknown. */
  static String time(Instant instant) {
    return instant == null ? "-" : TIME.format(instant);
  }

  /** {@code 2026-12-02 09:14:02.123 (UTC)}: a time stamp for a file header. */
  static String dateTime(Instant instant) {
    return DATE_TIME.format(instant) + " (" + ZONE.getId() + ")";
  }

  /** {@code times of day in zone UTC}: says how to read {@link #time} columns. */
  static String timesNote() {
    return "times of day in zone " + ZONE.getId();
  }

  /** The value on one line (line breaks become spaces), cut to {@code max} characters. */
  static String oneLine(String value, int max) {
    if (value == null || value.isBlank()) {
      return "-";
    }
    String line = value.strip().replaceAll("\\s*\\R\\s*", " ");
    return line.length() <= max ? line : line.substring(0, max - 3) + "...";
  }

  /**
   * Rows as lines of columns separated by two spaces, every column but the last padded to its
   * widest cell so the file reads as a table.
   */
  static List<String> table(List<List<String>> rows) {
    int columns = rows.stream().mapToInt(List::size).max().orElse(0);
    int[] widths = new int[columns];
    for (List<String> row : rows) {
      for (int i = 0; i < row.size() - 1; i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    List<String> lines = new ArrayList<>(rows.size());
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        String cell = row.get(i);
        line.append(cell);
        if (i < row.size() - 1) {
          line.append(" ".repeat(widths[i] - cell.length() + 2));
        }
      }
      lines.add(line.toString());
    }
    return lines;
  }
}
