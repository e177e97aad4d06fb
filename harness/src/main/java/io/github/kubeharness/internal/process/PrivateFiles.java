package io.github.kubeharness.internal.process;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and directories only their owner can read: keys, certificates, kubeconfigs and tokens are
 * 0600 in 0700 directories, whatever the umask, so another user of the machine reads none of a
 * run's credentials. On a file system without POSIX permissions the file is written plainly.
 */
public final class PrivateFiles {

  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_DIRECTORY =
      PosixFilePermissions.fromString("rwx------");

  private PrivateFiles() {}

  /** Writes {@code content} to {@code file} (replacing it), readable by its owner only. */
  public static Path write(Path file, String content) {
    try {
      create(file);
      Files.writeString(file, content, StandardOpenOption.TRUNCATE_EXISTING);
      return file;
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot write " + file + ": " + e, e);
    }
  }

  /** Creates {@code file} empty and owner-only if it does not exist; leaves an existing one. */
  public static Path create(Path file) throws IOException {
    try {
      if (posix(file)) {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_FILE));
      } else {
        Files.createFile(file);
      }
    } catch (FileAlreadyExistsException e) {
      if (posix(file)) {
        Files.setPosixFilePermissions(file, OWNER_FILE);
      }
    }
    return file;
  }

  /** Makes an existing file (a socket a child process made, say) owner-only. */
  public static Path restrict(Path file) {
    try {
      if (posix(file)) {
        Files.setPosixFilePermissions(file, OWNER_FILE);
      }
      return file;
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot make " + file + " owner-only: " + e, e);
    }
  }

  /** Creates {@code directory} (and missing parents) and makes it owner-only. */
  public static Path directory(Path directory) {
    try {
      Files.createDirectories(directory);
      if (posix(directory)) {
        Files.setPosixFilePermissions(directory, OWNER_DIRECTORY);
      }
      return directory;
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot create " + directory + ": " + e, e);
    }
  }

  private static boolean posix(Path path) {
    Path existing = path.toAbsolutePath();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    return existing != null
        && Files.getFileAttributeView(
                existing, java.nio.file.attribute.PosixFileAttributeView.class)
            != null;
  }
}
