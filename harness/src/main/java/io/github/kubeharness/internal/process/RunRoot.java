package io.github.kubeharness.internal.process;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The parent of this user's run directories: {@code <tmp>/kube-harness-<uid>}, created owner-only,
 * or checked before anything in it is used.
 *
 * <p>The temporary directory is shared by every user of the machine. A parent someone else made
 * first could point our stale-run sweep at their files (a symbolic link), plant pid records that
 * make us kill our own processes, or lock us out. So the root is one per user, and an existing one
 * is used only if it is a real directory, owned by us, that nobody else may enter; else nothing in
 * it is touched and the user is told how to get rid of it. Once it passes, nobody else can replace
 * it: the temporary directory is sticky, so only its owner (us) or root may rename or remove it.
 */
final class RunRoot {

  private static final String OWNER_ONLY = "rwx------";
  private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY =
      PosixFilePermissions.fromString(OWNER_ONLY);

  private RunRoot() {}

  /** This user's run root under {@code tmp}, created if absent, verified in any case. */
  static Path under(Path tmp) {
    OptionalLong uid = currentUid();
    Path root = tmp.resolve("kube-harness-" + (uid.isPresent() ? uid.getAsLong() : userName()));
    boolean posix = Files.getFileAttributeView(tmp, PosixFileAttributeView.class) != null;
    try {
      Files.createDirectories(tmp);
      if (posix) {
        // mkdir with the mode at once: there is no moment at which the directory is open to others.
        Files.createDirectory(root, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
        // The umask may have taken owner bits away; this directory is ours and just made.
        Files.setPosixFilePermissions(root, OWNER_ONLY_DIRECTORY);
      } else {
        Files.createDirectory(root);
      }
    } catch (FileAlreadyExistsException e) {
      // Made earlier, by us, by another JVM of ours or by someone else: verified below.
    } catch (IOException e) {
      throw new KubeHarnessException(
          "Cannot create the kube-harness run root "
              + root
              + ": "
              + e
              + ". Make "
              + tmp
              + " writable, or set java.io.tmpdir to a writable directory of your own.",
          e);
    }
    problem(root, posix, uid)
        .ifPresent(
            what -> {
              throw new KubeHarnessException(
                  "Refusing to use the kube-harness run root "
                      + root
                      + ": it is "
                      + what
                      + ". Another user may have made it to reach into your runs, so kube-harness"
                      + " touched nothing in it. Fix: remove it (rm -rf "
                      + root
                      + ", as its owner or root), or set java.io.tmpdir to a directory of your"
                      + " own (e.g. -Djava.io.tmpdir=$HOME/tmp).");
            });
    return root;
  }

  /** What makes {@code root} unsafe to use, if anything; nothing in it is read or changed. */
  static Optional<String> problem(Path root, boolean posix, OptionalLong uid) {
    try {
      if (Files.isSymbolicLink(root)) {
        return Optional.of(
            "a symbolic link to " + Files.readSymbolicLink(root) + ", not a directory");
      }
      if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.of("not a directory");
      }
      if (!posix) {
        return Optional.empty(); // no owner ids or modes to check (Windows): a per-user name only
      }
      if (uid.isPresent()) {
        long owner =
            ((Number) Files.getAttribute(root, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
        if (owner != uid.getAsLong()) {
          return Optional.of("owned by uid " + owner + ", not you (uid " + uid.getAsLong() + ")");
        }
      }
      PosixFileAttributes attributes =
          Files.readAttributes(root, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      String mode = PosixFilePermissions.toString(attributes.permissions());
      if (!mode.equals(OWNER_ONLY)) {
        return Optional.of("mode " + mode + ", not " + OWNER_ONLY + " (owner only)");
      }
      return Optional.empty();
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return Optional.of("unreadable (" + e + ")");
    }
  }

  /** The numeric user id of this JVM ({@link CurrentUser#uid()}). */
  static OptionalLong currentUid() {
    return CurrentUser.uid();
  }

  // Only characters that are safe in a file name.
  private static String userName() {
    return System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
