package io.github.kubeharness.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The last lines of a component's log, indented for an error message. */
public final class LogTail {

  /** How many lines an error message shows. */
  static final int LINES = 25;

  private LogTail() {}

  /** The last {@link #LINES} lines of a text file; a note when it cannot be read. */
  public static String of(Path file) {
    try {
      return of(Files.readAllLines(file, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return "    (log not readable: " + e.getMessage() + ")\n";
    }
  }

  /** The last {@link #LINES} of {@code lines}. */
  public static String of(List<String> lines) {
    StringBuilder out = new StringBuilder();
    for (String line : lines.subList(Math.max(0, lines.size() - LINES), lines.size())) {
      out.append("    ").append(line).append('\n');
    }
    return out.toString();
  }
}
