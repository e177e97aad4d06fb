package io.github.kubeharness.internal.reuse;

import io.github.kubeharness.internal.process.ProcessIdentity;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The process that owns a kept control plane once its first JVM has handed it over: a small {@code
 * /bin/sh} loop in a session of its own (so a Ctrl-C or a build tool's kill of the JVM's process
 * group does not reach it). Every second it checks the JVMs registered under {@code clients/};
 * after the idle timeout with none alive, or when kube-apiserver is gone, it kills every recorded
 * process that is still the one recorded (pid and start time, {@link ProcessIdentity}) and deletes
 * the state directory with the run in it. ({@code kube-harness down} stops it by {@link
 * KeptControlPlane#stopAll}.)
 */
final class Keeper {

  private static final String SCRIPT =
      String.join(
          "\n",
          "trap '' INT TERM HUP",
          ProcessIdentity.SHELL_FUNCTIONS,
          // state.properties records processes as '<pid> <start time>', a list of them
          // comma-separated.
          "state=$1; idle=$2; quiet=0",
          "clients_alive() {",
          "  alive=0",
          "  for f in \"$state\"/clients/*; do",
          "    [ -e \"$f\" ] || continue",
          "    if kill -0 \"${f##*/}\" 2>/dev/null; then alive=1; else rm -f \"$f\"; fi",
          "  done",
          "  [ $alive = 1 ]",
          "}",
          "while sleep 1; do",
          "  [ -f \"$state/state.properties\" ] || exit 0",
          "  if clients_alive; then quiet=0; else quiet=$((quiet+1)); fi",
          "  api=$(sed -n 's/^apiServerPid=//p' \"$state/state.properties\")",
          // Gone, or its pid now another process's.
          "  if [ -n \"$api\" ] && ! { kill -0 ${api% *} 2>/dev/null && same_start $api; }; then",
          "    mv \"$state/state.properties\" \"$state/" + KeptControlPlane.STOPPING + "\"; break",
          "  fi",
          "  [ $quiet -ge \"$idle\" ] || continue",
          // Idle: the state is moved aside first, then the clients looked at once more. A JVM
          // registers before it reads the state (KeptControlPlane.attachable), so one that found
          // the state is seen here, and the stop is called off; one that comes later finds no
          // state and waits for this decision.
          "  mv \"$state/state.properties\" \"$state/" + KeptControlPlane.STOPPING + "\"",
          "  clients_alive || break",
          "  mv \"$state/" + KeptControlPlane.STOPPING + "\" \"$state/state.properties\"; quiet=0",
          "done",
          "sed -n 's/^pids=//p' \"$state/" + KeptControlPlane.STOPPING + "\" | tr ',' '\\n' |",
          "  while read -r pid start; do kill_recorded \"$pid\" \"$start\"; done",
          // All but the lock file, which JVMs waiting to start or attach hold open: a new lock
          // file beside a deleted one would let two JVMs start at once.
          "find \"$state\" -mindepth 1 -maxdepth 1 ! -name lock -exec rm -rf {} +",
          "");

  private Keeper() {}

  /** Starts the keeper of {@code state}; returns its pid. */
  static long start(Path state, Duration idle) {
    try {
      Process keeper =
          new ProcessBuilder(
                  "setsid",
                  "/bin/sh",
                  "-c",
                  SCRIPT,
                  "kube-harness-keeper",
                  state.toString(),
                  Long.toString(Math.max(1, idle.toSeconds())))
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      return keeper.pid();
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot start the keeper of a reused control plane (setsid, /bin/sh): " + e, e);
    }
  }
}
