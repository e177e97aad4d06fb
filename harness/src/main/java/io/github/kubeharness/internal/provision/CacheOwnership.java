package io.github.kubeharness.internal.provision;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Settings;
import io.github.kubeharness.internal.process.CurrentUser;
import io.github.kubeharness.internal.process.PrivateFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The cache's binaries are executed, and run with the user's rights and keys: a binary someone else
 * could replace, or a directory where someone else could swap one in, hands them the user's
 * account. So before a cached binary runs, it and every directory on its real path (the cache's
 * parents included, as OpenSSH checks {@code ~/.ssh}) must belong to the user or root and be
 * writable by nobody else; a sticky directory ({@code /tmp}) may be writable by all, since only a
 * file's owner may rename or remove what is in it. The directories kube-harness makes for the cache
 * are made {@code rwxr-xr-x} whatever the umask ({@code PrivateFiles.notWritableByOthers}).
 */
final class CacheOwnership {

  private static final int GROUP_OR_WORLD_WRITE = 0022;
  private static final int STICKY = 01000;

  private CacheOwnership() {}

  /**
   * Returns {@code binary} once it and the directories on its real path are the user's (or root's)
   * and writable by no one else; else throws a {@link KubeHarnessException} naming the path, what
   * is wrong and the command that fixes it.
   */
  static Path requireTrusted(Path binary) {
    OptionalLong uid = CurrentUser.uid();
    if (uid.isEmpty() || !PrivateFiles.posix(binary)) {
      return binary; // no owners or modes to check (Windows)
    }
    Path real;
    try {
      real = binary.toRealPath();
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot check the cached binary " + binary + ": " + e, e);
    }
    List<Path> chain = new ArrayList<>();
    for (Path p = real; p != null; p = p.getParent()) {
      chain.add(0, p);
    }
    for (Path p : chain) {
      problem(p, p.equals(real), uid.getAsLong())
          .ifPresent(
              what -> {
                throw untrusted(binary, p, what);
              });
    }
    return binary;
  }

  private static Optional<String> problem(Path path, boolean isBinary, long uid) {
    try {
      long owner =
          ((Number) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
      int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      if (owner != uid && owner != 0) {
        return Optional.of("owned by uid " + owner + ", neither you (uid " + uid + ") nor root");
      }
      boolean sticky = !isBinary && (mode & STICKY) != 0;
      if ((mode & GROUP_OR_WORLD_WRITE) != 0 && !sticky) {
        return Optional.of(
            "writable by "
                + ((mode & 0020) != 0 ? "its group" : "")
                + ((mode & 0022) == 0022 ? " and " : "")
                + ((mode & 0002) != 0 ? "every user" : "")
                + String.format(" (mode %o)", mode & 07777));
      }
      return Optional.empty();
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return Optional.of("unreadable (" + e + ")");
    }
  }

  private static KubeHarnessException untrusted(Path binary, Path culprit, String what) {
    return new KubeHarnessException(
        "Refusing to run "
            + binary
            + " from the kube-harness cache: "
            + culprit
            + " is "
            + what
            + ", so someone else could replace what runs with your rights. Fix: "
            + (what.startsWith("owned")
                ? "give it back (chown -R \"$(id -un)\" " + culprit + ", as root)"
                : "chmod go-w " + culprit)
            + " if you trust its content, else delete the cache directory and let kube-harness"
            + " provision it again; or point "
            + Settings.describe(Settings.CACHE_DIR)
            + " at a directory of your own.");
  }
}
