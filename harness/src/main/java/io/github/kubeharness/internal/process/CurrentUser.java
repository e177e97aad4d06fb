package io.github.kubeharness.internal.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.OptionalLong;

/** Who this JVM runs as, and whose a file is: the numeric user ids the ownership checks compare. */
public final class CurrentUser {

  private CurrentUser() {}

  /**
   * The numeric user id of this JVM: {@code UnixSystem} of {@code jdk.security.auth} (Linux,
   * macOS), else the owner of {@code /proc/self} (a Linux runtime built without that module); empty
   * where there are no user ids (Windows).
   */
  public static OptionalLong uid() {
    try {
      // By reflection: the module is optional (a jlink'ed runtime may lack it).
      Class<?> unix = Class.forName("com.sun.security.auth.module.UnixSystem");
      Object system = unix.getConstructor().newInstance();
      return OptionalLong.of(((Number) unix.getMethod("getUid").invoke(system)).longValue());
    } catch (ReflectiveOperationException | LinkageError e) {
      // next
    }
    try {
      return OptionalLong.of(
          ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue());
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return OptionalLong.empty();
    }
  }

  /** The numeric owner of {@code path} itself (a link is not followed); empty without user ids. */
  public static OptionalLong ownerOf(Path path) throws IOException {
    try {
      return OptionalLong.of(
          ((Number) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue());
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return OptionalLong.empty();
    }
  }
}
