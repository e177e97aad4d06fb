package io.github.kubeharness.internal.process;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One child process of the control plane (etcd, kube-apiserver, ...): started with its output in a
 * log file, awaited until its {@link HealthCheck} holds, stopped gracefully then forcibly, and
 * guarded by the {@link Watchdog} so it never outlives the JVM.
 */
public final class ManagedProcess {

  private static final Duration STOP_GRACE = Duration.ofSeconds(5);
  private static final Duration KILL_GRACE = Duration.ofSeconds(60);

  private final String name;
  private final List<String> command;
  private final Path logFile;
  private final Map<String, String> environment;
  private Process process;

  public ManagedProcess(
      String name, List<String> command, Path logFile, Map<String, String> environment) {
    this.name = name;
    this.command = List.copyOf(command);
    this.logFile = logFile;
    this.environment = Map.copyOf(environment);
  }

  /**
   * Starts the process and waits for the first of: ready, exited, deadline. On exit or deadline the
   * process is stopped and the exception carries the log tail and the log path.
   */
  public synchronized void start(HealthCheck ready, Duration timeout) {
    launch();
    awaitReady(ready, timeout);
  }

  /**
   * Starts the process without waiting for it, so that the caller can prepare other work (or start
   * a process that connects to this one) while it boots; {@link #awaitReady} follows.
   */
  public synchronized void launch() {
    if (process != null && process.isAlive()) {
      return;
    }
    try {
      PrivateFiles.create(logFile);
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
              .redirectInput(ProcessBuilder.Redirect.PIPE);
      builder.environment().putAll(environment);
      process = builder.start();
    } catch (IOException e) {
      throw new KubeHarnessException(
          "Cannot start " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
    }
    long pid = process.pid();
    Watchdog.get().watch(pid);
    process.onExit().thenRun(() -> Watchdog.get().unwatch(pid));
    appendPid(pid);
  }

  /**
   * Waits for the first of: ready, exited, deadline. On exit or deadline the process is stopped and
   * the exception carries the log tail and the log path.
   */
  public synchronized void awaitReady(HealthCheck ready, Duration timeout) {
    Waits.poll(
        ready::isReady,
        Waits.deadline(timeout),
        () -> {
          if (!process.isAlive()) {
            String log = logExcerpt();
            throw PortTaken.orOther(
                name
                    + " exited with code "
                    + process.exitValue()
                    + " during start.\n"
                    + log
                    + "Command: "
                    + String.join(" ", command),
                log,
                null);
          }
        },
        last -> {
          stop();
          String log = logExcerpt();
          return PortTaken.orOther(
              name
                  + " did not become ready within the start timeout"
                  + (last == null ? "" : " (last check: " + describe(last) + ")")
                  + ".\n"
                  + log
                  + "Raise the timeout with -Dkubeharness.start.timeout.seconds=N (default 60) if"
                  + " the machine is slow.",
              log,
              last);
        });
  }

  private static String describe(Exception e) {
    // java.net.ConnectException carries no message: name the usual meaning instead.
    return e.getMessage() == null
        ? e.getClass().getSimpleName() + " (nothing listening yet)"
        : e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  /**
   * Sends SIGTERM, waits up to 5 s, then SIGKILL, and returns once the process is gone: callers
   * (and tests) rely on "stopped" meaning no process is left. Safe to call more than once.
   */
  public synchronized void stop() {
    if (process != null) {
      stop(name, process, STOP_GRACE);
    }
    // No unwatch here: launch()'s onExit does it once the process has really exited, so a process
    // that outlives this call stays the watchdog's.
  }

  /**
   * Stops any child process the same way: SIGTERM, up to {@code grace} to exit, then SIGKILL;
   * returns once it is gone, or fails naming it.
   */
  public static void stop(String name, Process process, Duration grace) {
    if (!process.isAlive()) {
      return;
    }
    try {
      process.destroy();
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        killAndAwait(name, process);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  // SIGKILL takes effect when the process leaves the kernel: a process in an uninterruptible wait
  // (etcd's fsync on a busy disk) may take a while to go.
  private static void killAndAwait(String name, Process process) throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(KILL_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new KubeHarnessException(
          name
              + " (pid "
              + process.pid()
              + ") did not exit within "
              + KILL_GRACE.toSeconds()
              + " s of SIGKILL; the watchdog still kills it when this JVM exits.");
    }
  }

  synchronized boolean isAlive() {
    return process != null && process.isAlive();
  }

  public synchronized long pid() {
    return process == null ? -1 : process.pid();
  }

  Path logFile() {
    return logFile;
  }

  String name() {
    return name;
  }

  /** The last lines of the log and its path, formatted for an error message. */
  String logExcerpt() {
    return "Last lines of " + logFile + ":\n" + LogTail.of(logFile);
  }

  // The run directory records its children so a later JVM can sweep them if this one is killed
  // before its watchdog could act.
  private void appendPid(long pid) {
    try {
      // With its start time: the pid alone may name another process by the time it is read.
      RunDirectory.record(logFile.getParent(), ProcessIdentity.of(pid));
    } catch (IOException e) {
      // Not fatal: the watchdog still guards the process.
    }
  }
}
