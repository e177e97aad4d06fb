package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Stand-in processes for the tests of what kills recorded processes (sweeps, the watchdog, the
 * keeper): started here, killed after each test whatever it did ({@code @RegisterExtension}).
 */
public final class StartedProcesses implements AfterEachCallback {

  // Process.isAlive() turns false only once the JDK's reaper thread has seen the exit, so a
  // process killed a moment ago may still look alive: "not killed" means "does not exit within
  // this long".
  private static final long STAYS_ALIVE_MS = 500;

  private final List<Process> started = new ArrayList<>();

  /** A process that sleeps a minute. */
  public Process sleep() throws IOException {
    return started(new ProcessBuilder("sleep", "60").start());
  }

  /**
   * {@code tail -f file}: a long-running single process whose command line names {@code file}, as
   * etcd's names its data directory. Returned at once; see {@link #tailingOpened}.
   */
  public Process tailing(Path file) throws IOException {
    return started(
        new ProcessBuilder("tail", "-f", file.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start());
  }

  /**
   * {@link #tailing}, returned once tail has the file open: a sweep that deleted it sooner would
   * make tail give up and exit, which would look like a kill.
   */
  public Process tailingOpened(Path file) throws Exception {
    Process p = tailing(file);
    Path target = file.toRealPath();
    Path fds = Path.of("/proc", Long.toString(p.pid()), "fd");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      try (Stream<Path> open = Files.list(fds)) {
        if (open.anyMatch(fd -> target.equals(linkTarget(fd)))) {
          return p;
        }
      } catch (IOException e) {
        // not there yet
      }
      Thread.sleep(10);
    }
    throw new AssertionError(p.info().commandLine().orElse("tail") + " did not open " + file);
  }

  /** Whether {@code p} exits within a moment: false means it was not killed. */
  public static boolean exitsWithinAMoment(Process p) throws InterruptedException {
    return p.waitFor(STAYS_ALIVE_MS, TimeUnit.MILLISECONDS);
  }

  /** The pid of a process that has already exited: the owner of a stale run, a reused pid. */
  public static long exitedPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(ProcessHandle.of(p.pid())).isEmpty();
    return p.pid();
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
    started.clear();
  }

  private Process started(Process p) {
    started.add(p);
    return p;
  }

  private static Path linkTarget(Path fd) {
    try {
      return Files.readSymbolicLink(fd);
    } catch (IOException e) {
      return null;
    }
  }
}
