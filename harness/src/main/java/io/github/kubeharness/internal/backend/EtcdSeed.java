package io.github.kubeharness.internal.backend;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.controlplane.EtcdTls;
import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.process.PrivateFiles;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.provision.Binaries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * An etcd data directory holding what a freshly started kube-apiserver writes before it is ready:
 * the system namespaces, the bootstrap RBAC roles and bindings, priority classes, flow schemas.
 *
 * <p>Why: kube-apiserver's {@code rbac/bootstrap-roles} hook waits a fixed second, then creates
 * about 150 objects; on 2 cores that creation alone is ~0.4 s of every start. Started on a copy of
 * this directory, the hook finds every object in place and only reads. The apiserver still runs
 * every hook and reconciles every object, so the cluster is the same as one started empty.
 *
 * <p>Besides etcd's default prefix {@code /registry} (the first cluster's), the seed holds {@link
 * #SLOTS} more keyspaces bootstrapped alike, {@link #slotPrefix} 1 to {@code SLOTS}: a cluster
 * beside the first ({@code @ControllerTest(clusters)}) takes one ({@link SeedSlots}) instead of
 * bootstrapping an empty prefix, which costs it the same second and more as an empty start.
 *
 * <p>One seed per pair of binaries (path, size, modification time) and format (slots included, so a
 * seed made without them is never taken for one with), made once (7-14 s on 2 shared cores) by a
 * private etcd and one kube-apiserver per keyspace that start empty and stop cleanly, then moved
 * into the cache atomically.
 */
final class EtcdSeed {

  /**
   * Bootstrapped keyspaces beyond {@code /registry}: enough for a class with a hub and two edges,
   * and one more. Each costs the seed's making one more apiserver start, once, and the seed ~0.2
   * MB.
   */
  public static final int SLOTS = 3;

  private static final String FORMAT = "etcd-seed-v2-slots-" + SLOTS;
  private static final Object MAKING = new Object();

  private final Path directory;

  private EtcdSeed(Path directory) {
    this.directory = directory;
  }

  /** The seed for these binaries, made first if there is none yet. */
  public static EtcdSeed forBinaries(
      Binaries binaries, Path cacheDirectory, Duration timeout, Consumer<String> progress) {
    Path seeds = cacheDirectory.resolve("etcd-seeds");
    Path seed = seeds.resolve(key(binaries));
    synchronized (MAKING) {
      if (!Files.isDirectory(seed)) {
        progress.accept(
            "making an etcd seed for faster starts (once for these binaries, several seconds): "
                + seed);
        make(binaries, seeds, seed, timeout);
      }
    }
    return new EtcdSeed(seed);
  }

  Path directory() {
    return directory;
  }

  /**
   * The etcd key prefix of slot {@code slot} (1 to {@link #SLOTS}). The dot keeps it apart from
   * every {@code /registry-<name>} of a cluster that found no slot free: cluster names are DNS
   * labels, which have none.
   */
  public static String slotPrefix(int slot) {
    if (slot < 1 || slot > SLOTS) {
      throw new IllegalArgumentException("slot " + slot + " is not between 1 and " + SLOTS);
    }
    return "/registry.slot-" + slot;
  }

  /** Copies the seed to {@code dataDirectory}, which must not exist yet. */
  void copyTo(Path dataDirectory) {
    copyTree(directory, dataDirectory);
  }

  /** Deletes the seed, e.g. after etcd could not start from it; the next start makes a new one. */
  public void discard() {
    RunDirectory.deleteRecursively(directory);
  }

  private static void make(Binaries binaries, Path seeds, Path seed, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (RunDirectory run = RunDirectory.create(RunDirectory.defaultRoot())) {
      EtcdTls etcdTls = EtcdTls.create();
      Etcd etcd = new Etcd(binaries.etcd(), run.path(), null, etcdTls);
      List<ApiServer> apiServers = new ArrayList<>();
      try {
        etcd.launch();
        etcd.awaitReady(remaining(deadline));
        // One apiserver per keyspace, booting together: their bootstrap hooks mostly wait.
        apiServers.add(bootstrapper(binaries, run.path(), etcd, etcdTls, List.of()));
        for (int slot = 1; slot <= SLOTS; slot++) {
          Path own = PrivateFiles.directory(run.path().resolve("slot-" + slot));
          apiServers.add(
              bootstrapper(
                  binaries, own, etcd, etcdTls, List.of("--etcd-prefix=" + slotPrefix(slot))));
        }
        for (ApiServer apiServer : apiServers) {
          apiServer.awaitReady(remaining(deadline), false);
        }
      } finally {
        // Graceful stops, apiservers first: etcd then closes its files consistently.
        for (ApiServer apiServer : apiServers) {
          apiServer.close();
        }
        etcd.close();
      }
      publish(etcd.dataDirectory(), seeds, seed);
    } catch (RuntimeException e) {
      throw new KubeHarnessException(
          "Making the etcd seed " + seed + " failed: " + e.getMessage(), e);
    }
  }

  // An apiserver that writes its start-up objects under the keyspace of `flags` and is launched.
  private static ApiServer bootstrapper(
      Binaries binaries, Path run, Etcd etcd, EtcdTls etcdTls, List<String> flags) {
    ApiServer apiServer =
        new ApiServer(
            binaries.kubeApiServer(),
            run,
            Pki.create(TinyCa.create("kube-harness-seed-ca"), List.of(), etcdTls),
            etcd.clientUrl(),
            false,
            // The profile's admission flags do not change what a start writes: one seed
            // serves both profiles.
            Profile.STANDARD,
            flags);
    apiServer.launch();
    return apiServer;
  }

  // Copy next to the destination first (the run directory may be on another file system), then
  // rename, so that a seed directory that exists is always complete. Another JVM may win the race.
  private static void publish(Path data, Path seeds, Path seed) {
    Path staging =
        seeds.resolve(".staging-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    try {
      Files.createDirectories(seeds);
      sweepAbandonedStaging(seeds);
      copyTree(data, staging);
      Files.move(staging, seed, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
      RunDirectory.deleteRecursively(staging);
    } catch (IOException e) {
      RunDirectory.deleteRecursively(staging);
      if (!Files.isDirectory(seed)) {
        throw new UncheckedIOException("Cannot store the etcd seed in " + seeds, e);
      }
    }
  }

  private static void sweepAbandonedStaging(Path seeds) throws IOException {
    Instant anHourAgo = Instant.now().minus(Duration.ofHours(1));
    try (Stream<Path> entries = Files.list(seeds)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        if (entry.getFileName().toString().startsWith(".staging-")
            && Files.getLastModifiedTime(entry).toInstant().isBefore(anHourAgo)) {
          RunDirectory.deleteRecursively(entry);
        }
      }
    }
  }

  private static void copyTree(Path from, Path to) {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path source : (Iterable<Path>) paths::iterator) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          PrivateFiles.directory(target); // as etcd makes them: its data is no one else's
        } else {
          Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy " + from + " to " + to, e);
    }
  }

  private static String key(Binaries binaries) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(FORMAT.getBytes(StandardCharsets.UTF_8));
      for (Path binary : List.of(binaries.etcd(), binaries.kubeApiServer())) {
        Path real = binary.toRealPath();
        String identity =
            real + "|" + Files.size(real) + "|" + Files.getLastModifiedTime(real).toMillis() + "\n";
        digest.update(identity.getBytes(StandardCharsets.UTF_8));
      }
      return HexFormat.of().formatHex(digest.digest(), 0, 8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the control-plane binaries", e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Duration remaining(long deadline) {
    return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
  }
}
