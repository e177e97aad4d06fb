package io.github.kubeharness.internal.backend;

import io.github.kubeharness.internal.process.ManagedProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A control-plane component run as a child process: its binary, the run directory its files and log
 * go to, and the process once launched. Closing stops it (SIGTERM, then SIGKILL).
 */
abstract class LocalComponent implements AutoCloseable {

  final Path binary;
  final Path runDirectory;
  ManagedProcess process;
  private boolean ownSession;

  LocalComponent(Path binary, Path runDirectory) {
    this.binary = binary;
    this.runDirectory = runDirectory;
  }

  /**
   * Runs the process in a session of its own ({@code setsid}), out of the reach of a Ctrl-C or a
   * build tool's kill of the JVM's process group: for a kept control plane, which outlives the JVM
   * under its keeper (itself in a session of its own). Not for the others: a group kill must take
   * them along with the JVM and its watchdog.
   */
  public void runInOwnSession() {
    ownSession = true;
  }

  /** The component's process, launched in a session of its own if asked to. */
  final ManagedProcess newProcess(
      String name, List<String> command, Path logFile, Map<String, String> environment) {
    List<String> launched = new ArrayList<>();
    if (ownSession) {
      // setsid execs in place (no fork) when its caller leads no process group, as a child of the
      // JVM never does: the pid stays the component's own, which the watchdog and keeper track.
      launched.add("setsid");
    }
    launched.addAll(command);
    return new ManagedProcess(name, launched, logFile, environment);
  }

  /** The process's pid. */
  public long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    if (process != null) {
      process.stop();
    }
  }
}
