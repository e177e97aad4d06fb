package io.github.kubeharness.internal.report;

import java.util.List;
import java.util.regex.Pattern;

/** The controller's log lines of one test as {@code controller.log}, and how many are warnings. */
final class ControllerLog {

  static final String EMPTY = "(no log lines captured)";

  // Level names as logback, log4j and java.util.logging print them.
  private static final Pattern WARN_OR_ERROR =
      Pattern.compile("\\b(WARN|WARNING|ERROR|SEVERE|FATAL)\\b");

  /** The lines and how many of them carry a WARN or ERROR level. */
  record Result(int lines, int warnings, String text) {}

  private ControllerLog() {}

  static Result of(List<String> lines) {
    if (lines.isEmpty()) {
      return new Result(0, 0, EMPTY + "\n");
    }
    StringBuilder text = new StringBuilder();
    int warnings = 0;
    for (String raw : lines) {
      String line = String.valueOf(raw);
      text.append(line).append('\n');
      if (WARN_OR_ERROR.matcher(line).find()) {
        warnings++;
      }
    }
    return new Result(lines.size(), warnings, text.toString());
  }
}
