package io.github.kubeharness.internal.provision;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Settings;
import io.github.kubeharness.internal.process.PrivateFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The binary cache of one Kubernetes version and platform: {@code
 * <cache>/k8s/<version>-<os>-<arch>/}. Binaries arrive only by atomic rename, each with a {@code
 * <name>.sha256} record ({@code <sha256> <size>}), so a killed provisioning never leaves a
 * half-written binary, and a truncated or overwritten one is recognised.
 */
public final class BinaryCache {

  // One lock per cache directory and JVM: FileChannel.lock() guards against other JVMs only; two
  // threads of one JVM would get an OverlappingFileLockException instead of waiting.
  private static final Map<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

  private final Path root;
  private final Path directory;

  public BinaryCache(Path cacheRoot, String kubernetesVersion, Platform platform) {
    this.root = cacheRoot;
    this.directory = cacheRoot.resolve("k8s").resolve(kubernetesVersion + "-" + platform);
  }

  /** The directory holding this version's binaries. */
  public Path directory() {
    return directory;
  }

  /** A cached binary whose size still matches its record, or empty. */
  public Optional<Path> find(Component component) {
    Path binary = directory.resolve(component.fileName());
    if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
      return Optional.empty();
    }
    Optional<Record> record = record(component);
    try {
      if (record.isPresent() && Files.size(binary) != record.get().size()) {
        throw corrupt(
            binary,
            "its size is "
                + Files.size(binary)
                + " bytes, "
                + record.get().size()
                + " were installed");
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.of(CacheOwnership.requireTrusted(binary));
  }

  /**
   * Full check of a cached binary against its recorded SHA-256; throws naming the file and the fix
   * when it differs. Used when a cached binary fails to start, and by {@code provision --verify}.
   */
  public void verify(Component component) {
    Path binary = directory.resolve(component.fileName());
    Optional<Record> record = record(component);
    if (record.isEmpty() || !Files.exists(binary)) {
      return;
    }
    String actual = sha256(binary);
    if (!actual.equals(record.get().sha256())) {
      throw corrupt(
          binary, "its SHA-256 is " + actual + ", " + record.get().sha256() + " was installed");
    }
  }

  /** Moves a freshly built or downloaded binary into the cache, atomically. */
  public Path install(Component component, Path source) {
    Path target = directory.resolve(component.fileName());
    try {
      PrivateFiles.notWritableByOthers(directory);
      Path staging = Files.createTempFile(directory, "." + component.fileName() + "-", ".partial");
      Files.copy(source, staging, StandardCopyOption.REPLACE_EXISTING);
      // Not the source's mode: a build under umask 002 leaves it group-writable.
      if (Files.getFileAttributeView(staging, PosixFileAttributeView.class) != null) {
        Files.setPosixFilePermissions(staging, PosixFilePermissions.fromString("rwxr-xr-x"));
      } else {
        staging.toFile().setExecutable(true, false);
      }
      String line = sha256(staging) + " " + Files.size(staging) + "\n";
      Path recordStaging =
          Files.createTempFile(directory, "." + component.fileName() + "-", ".sha256");
      Files.writeString(recordStaging, line);
      // Binary first, then its record: a crash in between leaves a binary without a record, which
      // is still accepted (as for binaries copied in by hand), never a record for a wrong binary.
      move(staging, target);
      move(recordStaging, directory.resolve(component.fileName() + ".sha256"));
      return CacheOwnership.requireTrusted(target);
    } catch (IOException e) {
      throw unwritable(e);
    }
  }

  /**
   * Takes the cache's lock, waiting (with a progress line) while another JVM or thread provisions
   * the same version. Close the returned handle to release it.
   */
  AutoCloseable lock(Consumer<String> progress) {
    ReentrantLock jvmLock = JVM_LOCKS.computeIfAbsent(directory, d -> new ReentrantLock());
    if (!jvmLock.tryLock()) {
      progress.accept("waiting for another thread provisioning " + directory + " ...");
      jvmLock.lock();
    }
    try {
      PrivateFiles.notWritableByOthers(directory.getParent());
      Path lockFile = directory.getParent().resolve("." + directory.getFileName() + ".lock");
      FileChannel channel =
          FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock fileLock = channel.tryLock();
      if (fileLock == null) {
        progress.accept("waiting for another process provisioning " + directory + " ...");
        fileLock = channel.lock();
      }
      FileLock held = fileLock;
      return () -> {
        try {
          held.release();
          channel.close();
        } finally {
          jvmLock.unlock();
        }
      };
    } catch (IOException | RuntimeException e) {
      jvmLock.unlock();
      throw e instanceof IOException io ? unwritable(io) : (RuntimeException) e;
    }
  }

  private KubeHarnessException unwritable(IOException e) {
    return new KubeHarnessException(
        "The kube-harness cache directory "
            + root
            + " is not writable ("
            + e
            + "). Make it writable, or point "
            + Settings.describe(Settings.CACHE_DIR)
            + " at a writable directory.",
        e);
  }

  private KubeHarnessException corrupt(Path binary, String detail) {
    return new KubeHarnessException(
        "The cached binary "
            + binary
            + " is corrupt: "
            + detail
            + ". Delete "
            + directory
            + " and run `java -jar kube-harness.jar provision` (or just rerun the tests) to"
            + " provision it again.");
  }

  private Optional<Record> record(Component component) {
    Path file = directory.resolve(component.fileName() + ".sha256");
    try {
      String[] parts = Files.readString(file).trim().split("\\s+");
      return Optional.of(new Record(parts[0], Long.parseLong(parts[1])));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Hex SHA-256 of a file. */
  static String sha256(Path file) {
    return digest(file, "SHA-256");
  }

  /** Hex digest of a file with the given JDK algorithm (SHA-256, SHA-512). */
  static String digest(Path file, String algorithm) {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest digest = MessageDigest.getInstance(algorithm);
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (IOException | NoSuchAlgorithmException e) {
      throw new KubeHarnessException("Cannot read " + file + " to check it: " + e, e);
    }
  }

  private record Record(String sha256, long size) {}
}
