package io.github.kubeharness.internal.process;

import io.github.kubeharness.KubeHarnessException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The temporary directory of one control plane run: certificates, etcd data, logs, kubeconfigs.
 *
 * <p>Named {@code run-<jvm pid>-<random>} under this user's {@link #defaultRoot() run root}, it
 * records its child processes (pid and start time, see {@link ProcessIdentity}). Creating one first
 * sweeps directories whose JVM is gone: their surviving children are killed and the directories
 * deleted. The {@link Watchdog} normally does that at the moment the JVM dies; the sweep covers a
 * watchdog that was itself killed.
 */
public final class RunDirectory implements AutoCloseable {

  static final String PIDS_FILE = "pids";
  private static final String PREFIX = "run-";

  private final Path path;
  // Kept for another JVM (kubeharness.reuse): no longer this JVM's to delete.
  private volatile boolean kept;

  private RunDirectory(Path path) {
    this.path = path;
  }

  /** A directory of a control plane another JVM started and kept: this JVM never deletes it. */
  public static RunDirectory adopt(Path path) {
    RunDirectory run = new RunDirectory(path);
    run.kept = true;
    return run;
  }

  /**
   * Hands the directory and the processes recorded in it over from this JVM: its watchdog forgets
   * them, and {@link #close()} no longer deletes. Returns the recorded pids.
   */
  public List<Long> keep() {
    kept = true;
    Watchdog.get().unwatchDirectory(path);
    List<Long> pids = recordedPids(path);
    pids.forEach(Watchdog.get()::unwatch);
    return pids;
  }

  /** The pids of the processes started for this run, as recorded when they were launched. */
  public static List<Long> recordedPids(Path run) {
    return recordedProcesses(run).stream().map(ProcessIdentity::pid).toList();
  }

  /** The processes started for this run, each as recorded when it was launched. */
  public static List<ProcessIdentity> recordedProcesses(Path run) {
    // Not through a symbolic link: the record must be the one in this directory.
    try (BufferedReader lines =
        new BufferedReader(
            Channels.newReader(
                Files.newByteChannel(
                    run.resolve(PIDS_FILE), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS),
                StandardCharsets.UTF_8))) {
      return lines.lines().map(ProcessIdentity::parse).flatMap(Optional::stream).toList();
    } catch (IOException | UncheckedIOException e) {
      return List.of(); // none recorded, or unreadable: nothing to signal
    }
  }

  /** Records a child process of the run directory {@code run} (appended to its pids file). */
  static void record(Path run, ProcessIdentity process) throws IOException {
    Path pids = PrivateFiles.create(run.resolve(PIDS_FILE));
    Files.writeString(pids, process.format() + "\n", StandardOpenOption.APPEND);
  }

  /**
   * The parent of this user's run directories, {@code <java.io.tmpdir>/kube-harness-<uid>}: created
   * owner-only, or verified before any use (see {@link RunRoot}); a root that is not safe to use
   * fails with a {@link KubeHarnessException} that says why and how to fix it.
   */
  public static Path defaultRoot() {
    // Checked on every call, not once per JVM: a tmp cleaner may remove it between runs and
    // someone else make it anew.
    return RunRoot.under(Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** Sweeps stale runs under {@code root}, then creates a fresh run directory there. */
  public static RunDirectory create(Path root) {
    try {
      Files.createDirectories(root);
      sweepStale(root);
      Path dir = Files.createTempDirectory(root, PREFIX + ProcessHandle.current().pid() + "-");
      Watchdog.get().watchDirectory(dir);
      return new RunDirectory(dir);
    } catch (IOException e) {
      throw new KubeHarnessException(
          "Cannot create a run directory under "
              + root
              + ": "
              + e
              + ". Make it writable or point java.io.tmpdir at a writable directory.",
          e);
    }
  }

  /** Kills leftovers of dead JVMs and deletes their directories. Returns how many were swept. */
  static int sweepStale(Path root) {
    if (!Files.isDirectory(root)) {
      return 0;
    }
    int swept = 0;
    try (Stream<Path> runs = Files.list(root)) {
      for (Path run : (Iterable<Path>) runs::iterator) {
        Optional<Long> owner = ownerPid(run);
        if (owner.isEmpty() || ProcessHandle.of(owner.get()).isPresent()) {
          continue;
        }
        // A symbolic link in the root is removed as a link: nothing behind it is read or killed.
        if (Files.isDirectory(run, LinkOption.NOFOLLOW_LINKS)) {
          killRecordedChildren(run);
        }
        deleteRecursively(run);
        swept++;
      }
    } catch (IOException | UncheckedIOException e) {
      // Best effort: a directory another JVM is deleting at the same moment is not an error.
    }
    return swept;
  }

  private static Optional<Long> ownerPid(Path run) {
    String name = run.getFileName().toString();
    if (!name.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String[] parts = name.substring(PREFIX.length()).split("-", 2);
    try {
      return Optional.of(Long.parseLong(parts[0]));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * Sends SIGKILL to the processes recorded in {@code run} that are still ours; returns them, for a
   * caller that must see them gone.
   */
  public static List<ProcessHandle> killRecordedChildren(Path run) {
    List<ProcessHandle> killed = new ArrayList<>();
    for (ProcessIdentity recorded : recordedProcesses(run)) {
      // Only the process recorded (same start time) whose command line still points into this run
      // directory: a reused pid of an unrelated process is left alone.
      recorded
          .liveAndNaming(run)
          .ifPresent(
              p -> {
                p.destroyForcibly();
                killed.add(p);
              });
    }
    return killed;
  }

  /** The directory. */
  public Path path() {
    return path;
  }

  /** A sub-directory only its owner can enter, created if missing. */
  public Path subdirectory(String name) {
    return PrivateFiles.directory(path.resolve(name));
  }

  /** Deletes the directory and everything in it, unless it is kept for another JVM. */
  @Override
  public void close() {
    if (kept) {
      return;
    }
    deleteRecursively(path);
    Watchdog.get().unwatchDirectory(path);
  }

  /**
   * Deletes a tree, ignoring files that vanish meanwhile. Symbolic links are deleted, never
   * followed ({@link Files#walk} does not follow them unless asked), so a link in the tree, or
   * {@code root} itself being one, never leads the deletion elsewhere.
   */
  public static void deleteRecursively(Path root) {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      List<Path> paths = walk.sorted(Comparator.reverseOrder()).toList();
      for (Path p : paths) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      // best effort
    }
  }
}
