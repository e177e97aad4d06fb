package io.github.kubeharness.internal.reuse;

import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.controlplane.ReadinessProbes;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.process.PrivateFiles;
import io.github.kubeharness.internal.process.ProcessIdentity;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.provision.Binaries;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A {@code local} control plane kept running for the next JVM ({@code kubeharness.reuse}): its
 * state directory under {@code <cache>/reuse/<key>}, the key a digest of everything that makes two
 * control planes different (version, profile, the binaries' paths, sizes and times, apiserver
 * flags, audit log, simulation settings), so a control plane of other binaries or flags is never
 * attached to. The directory (owner-only) holds the run (certificates, etcd data, logs), the CA's
 * key for new identities, {@code state.properties}, a lock file that makes "attach or start" atomic
 * between JVMs, and {@code clients/<pid>} for each attached JVM, which the {@link Keeper} watches.
 */
public final class KeptControlPlane {

  private static final String STATE = "state.properties";

  /** Where the keeper moves the state while it decides to stop (see {@link Keeper}). */
  static final String STOPPING = "stopping.properties";

  // A keeper decides within a second; longer means it died mid-way (its state is then cleared).
  private static final Duration STOP_DECISION_PATIENCE = Duration.ofSeconds(10);
  private static final Duration ATTACH_PATIENCE = Duration.ofSeconds(15);
  private static final java.util.Map<Path, Integer> ATTACHED = new java.util.HashMap<>();

  private final Path directory;
  private final Duration idle;

  private KeptControlPlane(Path directory, Duration idle) {
    this.directory = directory;
    this.idle = idle;
  }

  /** The kept control plane these options and binaries would use (it may not exist yet). */
  public static KeptControlPlane of(
      ControlPlaneOptions options, BackendOptions.Local local, Binaries binaries) {
    return new KeptControlPlane(
        root(options.cacheDirectory()).resolve(KeptKey.of(options, local, binaries)),
        local.reuseIdleTimeout());
  }

  /** Where kept control planes live. */
  static Path root(Path cacheDirectory) {
    return cacheDirectory.resolve("reuse");
  }

  /** What was found running: enough to attach. */
  public record State(
      String apiServerUrl, Path kubeconfig, Path run, Optional<Path> auditLog, TinyCa ca) {}

  /** Holds the lock of this kept control plane: between JVMs, one attaches or starts at a time. */
  public AutoCloseable lock() {
    try {
      PrivateFiles.directory(directory.getParent());
      PrivateFiles.directory(directory);
      FileChannel channel =
          FileChannel.open(
              PrivateFiles.create(directory.resolve("lock")), StandardOpenOption.WRITE);
      FileLock lock = channel.lock();
      return () -> {
        lock.release();
        channel.close();
      };
    } catch (IOException e) {
      throw new KubeHarnessException(
          "Cannot lock " + directory + " to reuse a control plane: " + e, e);
    }
  }

  /** The directory a new kept control plane's run goes into. */
  public Path directory() {
    return directory;
  }

  /**
   * The control plane kept here, if its keeper and kube-apiserver are alive and it answers {@code
   * /readyz}; a state that fails any of that is cleared (its processes killed) and empty returned.
   * Call it {@link #attach() attached}: a keeper about to stop for idleness then sees this JVM and
   * stays (the order the keeper's stop relies on); a keeper already stopping is waited for.
   */
  public Optional<State> attachable() {
    awaitStopDecision();
    Optional<Properties> properties = properties(STATE);
    if (properties.isEmpty()) {
      return Optional.empty();
    }
    Properties p = properties.get();
    try {
      boolean alive = isAlive(p.getProperty("keeperPid")) && isAlive(p.getProperty("apiServerPid"));
      Path run = Path.of(p.getProperty("run"));
      TinyCa ca = KeptCa.load(run);
      String url = p.getProperty("apiServerUrl");
      if (alive && readyWithin(url, ca, p.getProperty("apiServerPid"))) {
        String audit = p.getProperty("auditLog", "");
        return Optional.of(
            new State(
                url,
                Path.of(p.getProperty("kubeconfig")),
                run,
                audit.isEmpty() ? Optional.empty() : Optional.of(Path.of(audit)),
                ca));
      }
    } catch (RuntimeException | IOException | GeneralSecurityException e) {
      // fall through: not attachable
    }
    clear();
    return Optional.empty();
  }

  /**
   * Hands a control plane that just started over to a keeper: the CA key and the state are written,
   * this JVM's watchdog forgets the run's processes and directory, and the keeper owns them from
   * now on.
   */
  public void keep(
      RunDirectory run,
      String apiServerUrl,
      Path kubeconfig,
      long apiServerPid,
      Optional<Path> auditLog,
      TinyCa ca) {
    KeptCa.save(run.path(), ca);
    // Each process with its start time (ProcessIdentity): the keeper and a later clear() signal a
    // pid only while it is still the process recorded here.
    List<ProcessIdentity> processes = RunDirectory.recordedProcesses(run.path());
    Properties p = new Properties();
    p.setProperty("apiServerUrl", apiServerUrl);
    p.setProperty("kubeconfig", kubeconfig.toString());
    p.setProperty("run", run.path().toString());
    p.setProperty("auditLog", auditLog.map(Path::toString).orElse(""));
    p.setProperty("apiServerPid", ProcessIdentity.of(apiServerPid).format());
    p.setProperty(
        "pids", processes.stream().map(ProcessIdentity::format).collect(Collectors.joining(",")));
    // The state first: the keeper exits at once when it finds none. This JVM's watchdog lets go
    // only once the keeper runs: if it cannot start, the processes still die with this JVM (and
    // the state, its keeper dead, is cleared by the next attach).
    writeProperties(p);
    p.setProperty("keeperPid", ProcessIdentity.of(Keeper.start(directory, idle)).format());
    writeProperties(p);
    run.keep();
  }

  /**
   * Registers this JVM as attached, so the keeper waits; returns what unregisters it. Counted per
   * JVM: several control plane objects of one JVM may attach to the same kept one.
   */
  public Runnable attach() {
    Path client =
        PrivateFiles.directory(directory.resolve("clients"))
            .resolve(Long.toString(ProcessHandle.current().pid()));
    synchronized (ATTACHED) {
      ATTACHED.merge(client, 1, Integer::sum);
      PrivateFiles.write(client, "");
    }
    return () -> {
      synchronized (ATTACHED) {
        if (ATTACHED.merge(client, -1, Integer::sum) > 0) {
          return;
        }
        ATTACHED.remove(client);
        try {
          Files.deleteIfExists(client);
        } catch (IOException e) {
          // the keeper removes entries of dead JVMs itself
        }
      }
    };
  }

  // While the keeper has the state moved aside it is deciding whether to stop: it puts the state
  // back (a JVM registered meanwhile) or stops everything and deletes it, within a second.
  private void awaitStopDecision() {
    long deadline = System.nanoTime() + STOP_DECISION_PATIENCE.toNanos();
    while (Files.exists(directory.resolve(STOPPING)) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Kills whatever a state records and deletes it (a stale state, or {@code down}). */
  void clear() {
    List<ProcessHandle> killed = new ArrayList<>();
    properties(STATE)
        .or(() -> properties(STOPPING))
        .ifPresent(
            p -> {
              killed.addAll(RunDirectory.killRecordedChildren(Path.of(p.getProperty("run"))));
              // The keeper too, if that pid is still the keeper of this directory.
              ProcessIdentity.parse(p.getProperty("keeperPid"))
                  .flatMap(k -> k.liveAndNaming(directory))
                  .ifPresent(
                      k -> {
                        k.destroyForcibly();
                        killed.add(k);
                      });
            });
    // Gone when this returns: a caller (down, a test) may check at once.
    for (ProcessHandle process : killed) {
      try {
        process.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
      } catch (Exception e) {
        // reported by whoever checks; the keeper's loop kills what is left as well
      }
    }
    try (Stream<Path> entries = Files.list(directory)) {
      for (Path entry : entries.toList()) {
        if (!entry.getFileName().toString().equals("lock")) {
          RunDirectory.deleteRecursively(entry);
        }
      }
    } catch (IOException e) {
      // nothing there
    }
  }

  /** Stops every kept control plane under {@code cacheDirectory}; returns how many. */
  public static int stopAll(Path cacheDirectory) {
    Path root = root(cacheDirectory);
    if (!Files.isDirectory(root)) {
      return 0;
    }
    int stopped = 0;
    try (Stream<Path> kept = Files.list(root)) {
      for (Path directory : kept.toList()) {
        KeptControlPlane controlPlane = new KeptControlPlane(directory, Duration.ZERO);
        boolean running = controlPlane.properties(STATE).isPresent();
        // Everything but the lock file goes, under the lock: deleting the directory after letting
        // go would delete the run of a JVM that took the lock meanwhile to start a new one (its
        // keeper would then find no processes recorded, and they would outlive everything).
        try (AutoCloseable lock = controlPlane.lock()) {
          controlPlane.clear();
        }
        stopped += running ? 1 : 0;
      }
    } catch (Exception e) {
      throw new KubeHarnessException("Cannot stop the kept control planes in " + root + ": " + e);
    }
    return stopped;
  }

  private Optional<Properties> properties(String name) {
    Path file = directory.resolve(name);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      Properties p = new Properties();
      p.load(new StringReader(Files.readString(file)));
      return Optional.of(p);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private void writeProperties(Properties p) {
    try {
      StringWriter out = new StringWriter();
      p.store(out, "a kube-harness control plane kept for reuse; kube-harness down stops it");
      Path temporary = PrivateFiles.write(directory.resolve(STATE + ".new"), out.toString());
      Files.move(
          temporary,
          directory.resolve(STATE),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot write " + directory.resolve(STATE) + ": " + e, e);
    }
  }

  private static boolean isAlive(String recorded) {
    return ProcessIdentity.parse(recorded).flatMap(ProcessIdentity::live).isPresent();
  }

  // Its processes live, so a probe that fails is most likely a busy machine (a 2 s request timeout
  // is short with several control planes and a build on 2 cores): clearing it then would throw
  // away a healthy control plane. Asked again until kube-apiserver dies or the patience ends.
  private static boolean readyWithin(String url, TinyCa ca, String apiServer) {
    long deadline = System.nanoTime() + ATTACH_PATIENCE.toNanos();
    while (true) {
      if (ready(url, ca)) {
        return true;
      }
      if (System.nanoTime() > deadline || !isAlive(apiServer)) {
        return false;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  // What a start waits for: /readyz, less the bootstrap hooks the etcd seed already satisfied
  // (the apiserver answers those a second or two later; a JVM attaching at once must not wait).
  private static boolean ready(String url, TinyCa ca) {
    try {
      return ReadinessProbes.apiServer(url, ca).readyz(ReadinessProbes.SEEDED_HOOKS).isReady();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      return false;
    }
  }
}
