package io.github.kubeharness.internal.process;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Files and directories only their owner can read: keys, certificates, kubeconfigs and tokens are
 * 0600 in 0700 directories, whatever the umask, so another user of the machine reads none of a
 * run's credentials. On a file system without POSIX permissions the file is written plainly.
 *
 * <p>A credential always goes into a file created new, with its owner-only mode from the first
 * moment ({@code O_CREAT|O_EXCL|O_NOFOLLOW}): nothing is written through a path that already
 * exists. In a shared directory ({@code /tmp}) another user could have planted a symbolic link
 * there (the key would land wherever it points) or a file of their own (they could read it). So an
 * existing path is replaced only when it is a regular file of ours, not a link: its name is removed
 * (a hard link's other names keep their content) and a new file made; anything else is refused,
 * untouched, with the fix.
 */
public final class PrivateFiles {

  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_DIRECTORY =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> SHARED_DIRECTORY =
      PosixFilePermissions.fromString("rwxr-xr-x");

  private PrivateFiles() {}

  /**
   * Writes {@code content} to {@code file} as a new owner-only file. An existing regular file of
   * this user's (not a link) is replaced by a new one; anything else there is refused with a {@link
   * KubeHarnessException} that names the path and the fix, and left as it was.
   */
  public static Path write(Path file, String content) {
    try {
      clearWayFor(file);
      try (SeekableByteChannel channel = createNew(file)) {
        ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
      }
      return file;
    } catch (FileAlreadyExistsException e) {
      // Something appeared between the removal and the creation: someone is racing us.
      throw refused(file, "something that appeared there while it was being replaced");
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot write " + file + ": " + e, e);
    }
  }

  /**
   * Fails as {@link #write} would on what is at {@code file} now, before any work is done for it
   * (the CLI checks its {@code --kubeconfig} path before it starts a control plane).
   */
  public static void requireWritable(Path file) {
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      problemWithExisting(file)
          .ifPresent(
              problem -> {
                throw refused(file, problem);
              });
    }
  }

  /**
   * Creates {@code file} empty and owner-only if it does not exist; an existing one is kept if it
   * is a regular file of this user's (made owner-only), refused otherwise.
   */
  public static Path create(Path file) throws IOException {
    try {
      createNew(file).close();
    } catch (FileAlreadyExistsException e) {
      Optional<String> problem = problemWithExisting(file);
      if (problem.isPresent()) {
        throw refused(file, problem.get());
      }
      if (posix(file)) {
        Files.setPosixFilePermissions(file, OWNER_FILE);
      }
    }
    return file;
  }

  /**
   * Makes an existing file (a socket a child process made, say) owner-only; a symbolic link there
   * is refused, so the mode of whatever it points at stays as it was.
   */
  public static Path restrict(Path file) {
    if (Files.isSymbolicLink(file)) {
      throw refused(file, "a symbolic link");
    }
    try {
      if (posix(file)) {
        Files.setPosixFilePermissions(file, OWNER_FILE);
      }
      return file;
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot make " + file + " owner-only: " + e, e);
    }
  }

  /**
   * Creates {@code directory} (and missing parents) owner-only from the start; an existing one is
   * made owner-only if it is a directory of this user's and not a link, refused otherwise.
   */
  public static Path directory(Path directory) {
    try {
      Path parent = directory.toAbsolutePath().getParent();
      if (parent != null) {
        notWritableByOthers(parent);
      }
      try {
        if (posix(directory)) {
          Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(OWNER_DIRECTORY));
        } else {
          Files.createDirectory(directory);
        }
      } catch (FileAlreadyExistsException e) {
        Optional<String> problem = problem(directory, true);
        if (problem.isPresent()) {
          throw refused(directory, problem.get());
        }
      }
      if (posix(directory)) {
        // Also after a creation: the umask may have taken owner bits away.
        Files.setPosixFilePermissions(directory, OWNER_DIRECTORY);
      }
      return directory;
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot create " + directory + ": " + e, e);
    }
  }

  /**
   * Creates {@code directory} and its missing parents {@code rwxr-xr-x} whatever the umask (a umask
   * of 002 would make them group-writable): for the parents of private directories and for the
   * binary cache, whose directories must be writable by their owner alone.
   */
  public static Path notWritableByOthers(Path directory) throws IOException {
    List<Path> missing = new ArrayList<>();
    for (Path p = directory.toAbsolutePath();
        p != null && !Files.isDirectory(p);
        p = p.getParent()) {
      missing.add(0, p);
    }
    for (Path p : missing) {
      try {
        if (posix(p)) {
          Files.createDirectory(p, PosixFilePermissions.asFileAttribute(SHARED_DIRECTORY));
        } else {
          Files.createDirectory(p);
        }
      } catch (FileAlreadyExistsException e) {
        // made meanwhile by another thread or JVM; a file there fails the caller's next step
      }
    }
    return directory;
  }

  /** Removes an existing regular file of ours at {@code file}; refuses anything else there. */
  private static void clearWayFor(Path file) throws IOException {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Optional<String> problem = problemWithExisting(file);
    if (problem.isPresent()) {
      throw refused(file, problem.get());
    }
    Files.delete(file); // the name only: a link is removed, never followed
  }

  private static SeekableByteChannel createNew(Path file) throws IOException {
    Set<OpenOption> options =
        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    FileAttribute<?>[] attributes =
        posix(file)
            ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_FILE)}
            : new FileAttribute<?>[0];
    return Files.newByteChannel(file, options, attributes);
  }

  /** Why the existing {@code file} is not ours to replace, if it is not. */
  private static Optional<String> problemWithExisting(Path file) {
    return problem(file, false);
  }

  private static Optional<String> problem(Path path, boolean directory) {
    try {
      if (Files.isSymbolicLink(path)) {
        return Optional.of("a symbolic link to " + Files.readSymbolicLink(path));
      }
      if (directory && !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.of("not a directory");
      }
      if (!directory && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.of("not a regular file");
      }
      OptionalLong uid = CurrentUser.uid();
      OptionalLong owner = CurrentUser.ownerOf(path);
      if (uid.isPresent() && owner.isPresent() && owner.getAsLong() != uid.getAsLong()) {
        return Optional.of(
            "owned by uid " + owner.getAsLong() + ", not you (uid " + uid.getAsLong() + ")");
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("unreadable (" + e + ")");
    }
  }

  private static KubeHarnessException refused(Path path, String what) {
    return new KubeHarnessException(
        "Refusing to write to "
            + path
            + ": it is "
            + what
            + ". kube-harness writes keys, tokens and kubeconfigs only into files it creates new"
            + " (or in place of a regular file of yours), never through a link or into a file"
            + " someone else made, which could hand them to another user. Fix: remove it (rm "
            + path
            + ") or choose a path in a directory of your own.");
  }

  /**
   * Whether the file system {@code path} is on (or would be, for a path not there yet) has POSIX
   * owners and modes: elsewhere there is nothing to set or check.
   */
  public static boolean posix(Path path) {
    Path existing = path.toAbsolutePath();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    return existing != null
        && Files.getFileAttributeView(existing, PosixFileAttributeView.class) != null;
  }
}
