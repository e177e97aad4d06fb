package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.internal.process.ManagedProcess;
import java.nio.file.Path;

/**
 * A control-plane component run as a child process: its binary, the run directory its files and log
 * go to, and the process once launched. Closing stops it (SIGTERM, then SIGKILL).
 */
abstract class LocalComponent implements AutoCloseable {

  final Path binary;
  final Path runDirectory;
  ManagedProcess process;

  LocalComponent(Path binary, Path runDirectory) {
    this.binary = binary;
    this.runDirectory = runDirectory;
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
