package io.github.kubeharness.internal.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A process as the harness records it: its pid and when it started. The kernel hands a pid to a new
 * process once the old one is gone, so a pid read back from a file, a state or a watchdog's list
 * means "our process" only while the process behind it still started at the recorded time.
 *
 * <p>The start time is field 22 of {@code /proc/<pid>/stat} (clock ticks since boot) where there is
 * a {@code /proc}, because a {@code /bin/sh} script can read that one too ({@link
 * #SHELL_FUNCTIONS}); elsewhere the start instant the JDK reports, in milliseconds; empty when
 * neither is known, and then only the pid is compared, as before start times were recorded.
 *
 * @param pid the process id
 * @param startTime when the process started, as above; empty if unknown
 */
public record ProcessIdentity(long pid, String startTime) {

  // On Linux, where the shell can read the same field: what the scripts compare must be what
  // Java recorded.
  private static final boolean PROC = Files.isReadable(Path.of("/proc/self/stat"));

  /**
   * {@code /bin/sh} functions for scripts that signal recorded processes after the JVM is gone (the
   * {@link Watchdog}, the keeper of a kept control plane): {@code same_start PID START} is true
   * unless {@code /proc} shows PID now belongs to a process started at another time; {@code
   * kill_recorded PID START} sends SIGKILL only then. Without {@code /proc} or without a recorded
   * start there is nothing to compare and the pid is taken as recorded.
   */
  public static final String SHELL_FUNCTIONS =
      String.join(
          "\n",
          "same_start() {",
          "  [ -n \"$2\" ] && [ -r /proc/self/stat ] || return 0",
          // Field 2 (the command name) may hold spaces and ')': cut after the last ') ', then
          // field 22 is the 20th.
          "  [ \"$(sed 's/.*) //' \"/proc/$1/stat\" 2>/dev/null | cut -d' ' -f20)\" = \"$2\" ]",
          "}",
          "kill_recorded() { same_start \"$1\" \"$2\" && kill -KILL \"$1\" 2>/dev/null; }",
          "");

  /** The identity of the process {@code pid} now; its start time is empty if it cannot be read. */
  public static ProcessIdentity of(long pid) {
    return new ProcessIdentity(pid, startTimeOf(pid).orElse(""));
  }

  /**
   * Reads what {@link #format()} wrote: {@code "<pid> <start time>"}, or a bare pid (records made
   * before start times were kept). Empty for anything else.
   */
  public static Optional<ProcessIdentity> parse(String recorded) {
    if (recorded == null) {
      return Optional.empty();
    }
    String[] parts = recorded.trim().split("\\s+");
    if (parts.length > 2 || !parts[0].matches("\\d{1,18}")) {
      return Optional.empty();
    }
    String start = parts.length == 2 ? parts[1] : "";
    if (!start.matches("\\d*")) {
      return Optional.empty();
    }
    return Optional.of(new ProcessIdentity(Long.parseLong(parts[0]), start));
  }

  /** {@code "<pid> <start time>"}, or the bare pid when the start time is unknown. */
  public String format() {
    return startTime.isEmpty() ? Long.toString(pid) : pid + " " + startTime;
  }

  /**
   * The process, if it is alive and still the one recorded: the start time matches, or none was
   * recorded.
   */
  public Optional<ProcessHandle> live() {
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .filter(p -> startTime.isEmpty() || startTimeOf(pid).map(startTime::equals).orElse(false));
  }

  /**
   * The process, if {@link #live()} and its command line names {@code path} (see {@link
   * #mentions}): what a sweep may signal as its own.
   */
  public Optional<ProcessHandle> liveAndNaming(Path path) {
    return live().filter(p -> mentions(p.info().commandLine().orElse(""), path));
  }

  /**
   * Whether {@code commandLine} names {@code path} itself or something inside it: the path must
   * stand as a whole, so {@code /tmp/run-123} is not found in {@code /tmp/run-1234/etcd.log} nor in
   * {@code /x/tmp/run-123}.
   */
  static boolean mentions(String commandLine, Path path) {
    String wanted = path.toString();
    for (int at = commandLine.indexOf(wanted); at >= 0; at = commandLine.indexOf(wanted, at + 1)) {
      int end = at + wanted.length();
      boolean startsWhole = at == 0 || !continuesPath(commandLine.charAt(at - 1));
      boolean endsWhole =
          end == commandLine.length()
              || commandLine.charAt(end) == '/'
              || !continuesName(commandLine.charAt(end));
      if (startsWhole && endsWhole) {
        return true;
      }
    }
    return false;
  }

  // A character that could belong to the same file name (so the match would be a prefix of it).
  private static boolean continuesName(char c) {
    return Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.';
  }

  // Before the path: its leading '/' must not continue a longer path.
  private static boolean continuesPath(char c) {
    return continuesName(c) || c == '/';
  }

  private static Optional<String> startTimeOf(long pid) {
    if (PROC) {
      return procStartTime(pid);
    }
    return ProcessHandle.of(pid)
        .flatMap(p -> p.info().startInstant())
        .map(i -> Long.toString(i.toEpochMilli()));
  }

  private static Optional<String> procStartTime(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      // fields[0] is field 3 (the state), so field 22 is fields[19].
      return fields.length > 19 && fields[19].matches("\\d+")
          ? Optional.of(fields[19])
          : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // gone, or not ours to read
    }
  }
}
