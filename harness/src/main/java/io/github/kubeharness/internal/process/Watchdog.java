package io.github.kubeharness.internal.process;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Kills the harness's child processes and deletes its run directories when the JVM dies, even by
 * {@code kill -9}, when no shutdown hook runs.
 *
 * <p>A small {@code /bin/sh} process reads commands from a pipe whose write end only this JVM
 * holds. When the JVM dies for any reason the kernel closes that pipe, the script reads end of
 * file, sends SIGKILL to every process still registered and still the process it was registered as
 * (same start time, see {@link ProcessIdentity}), and removes the registered directories. One
 * watchdog serves the whole JVM: it guards a JVM-wide resource, which is why it is a singleton.
 */
public final class Watchdog {

  // Package-private for WatchdogTest, which runs it on its own pipe.
  static final String SCRIPT =
      String.join(
          "\n",
          // Survive signals sent to the whole process group (Ctrl-C, timeout(1)): its job is to
          // act after the JVM is gone.
          "trap '' INT TERM HUP",
          ProcessIdentity.SHELL_FUNCTIONS,
          // Each registered process as <pid>:<start time>; the start time may be empty.
          "pids=' '; dirs=''; containers=''",
          "while IFS= read -r line; do",
          "  case \"$line\" in",
          "    +*) pids=\"$pids${line#+} \" ;;",
          "    -*) pids=$(printf '%s' \"$pids\" | sed \"s/ ${line#-}:[0-9]* / /\") ;;",
          "    d*) dirs=\"$dirs ${line#d}\" ;;",
          "    u*) dirs=$(printf '%s' \"$dirs\" | sed \"s# ${line#u}##\") ;;",
          "    c*) containers=\"$containers ${line#c}\" ;;",
          "    r*) containers=$(printf '%s' \"$containers\" | sed \"s/ ${line#r}//\") ;;",
          "  esac",
          "done",
          // Straight to SIGKILL: the run's data is temporary, so a graceful shutdown buys
          // nothing, and the processes should be gone the moment the JVM is.
          // A pid the kernel has given to another process since is left alone.
          "for p in $pids; do kill_recorded \"${p%%:*}\" \"${p#*:}\"; done",
          "for c in $containers; do docker rm -f -v \"$c\" >/dev/null 2>&1; done",
          "for d in $dirs; do rm -rf \"$d\"; done",
          "");

  private static Watchdog instance;

  private final Process process;
  private final OutputStream commands;

  private Watchdog(Process process) {
    this.process = process;
    this.commands = process.getOutputStream();
  }

  /** The JVM's watchdog, started on first use. */
  public static synchronized Watchdog get() {
    if (instance == null || !instance.process.isAlive()) {
      try {
        Process p =
            new ProcessBuilder("/bin/sh", "-c", SCRIPT)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        instance = new Watchdog(p);
      } catch (IOException e) {
        throw new IllegalStateException("Cannot start the kube-harness watchdog (/bin/sh)", e);
      }
    }
    return instance;
  }

  /** Pid of the watchdog process itself (for tests). */
  long pid() {
    return process.pid();
  }

  /** Kill this process if the JVM dies (and it is still the process it is now). */
  public void watch(long pid) {
    ProcessIdentity process = ProcessIdentity.of(pid);
    if (process.startTime().isEmpty() && ProcessHandle.of(pid).isEmpty()) {
      return; // already gone (and reaped): its pid may soon be someone else's
    }
    send("+" + pid + ":" + process.startTime());
  }

  /** The process ended normally; forget it so its pid is never signalled after reuse. */
  public void unwatch(long pid) {
    send("-" + pid);
  }

  /**
   * Remove this Docker container (with the {@code docker} command) if the JVM dies: the safety net
   * when Testcontainers' Ryuk is disabled.
   */
  public void watchContainer(String id) {
    send("c" + id);
  }

  /** The container was removed normally. */
  public void unwatchContainer(String id) {
    send("r" + id);
  }

  /** Delete this directory if the JVM dies. Paths must not contain whitespace or '#'. */
  void watchDirectory(Path directory) {
    String path = directory.toAbsolutePath().toString();
    if (path.matches(".*[\\s#].*")) {
      return; // the sweep of stale run directories at the next start still removes it
    }
    send("d" + path);
  }

  /** The directory was removed normally. */
  void unwatchDirectory(Path directory) {
    send("u" + directory.toAbsolutePath());
  }

  private synchronized void send(String line) {
    try {
      commands.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      commands.flush();
    } catch (IOException e) {
      // The watchdog is gone (killed from outside). The stale-run sweep remains as a safety net.
    }
  }
}
