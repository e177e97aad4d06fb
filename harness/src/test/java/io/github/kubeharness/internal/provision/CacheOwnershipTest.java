package io.github.kubeharness.internal.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Stranger;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cached binary runs only when nobody but its user (or root) could have put it there: {@link
 * BinaryCache#find} refuses a binary or a cache directory that others may write or that another
 * user owns, naming the culprit and the command that fixes it.
 */
class CacheOwnershipTest {

  private static final Platform PLATFORM = new Platform("linux", "amd64");
  private static final byte[] CONTENT =
      "#!/bin/sh\necho pretending to be etcd\n".getBytes(StandardCharsets.UTF_8);

  @TempDir Path tmp;

  private Path cacheRoot;
  private BinaryCache cache;
  private Path installed;

  @BeforeEach
  void setUp() throws IOException {
    cacheRoot = tmp.toRealPath().resolve("cache");
    cache = new BinaryCache(cacheRoot, "1.37.2", PLATFORM);
    Path built = Files.write(tmp.resolve("etcd"), CONTENT);
    Files.setPosixFilePermissions(built, PosixFilePermissions.fromString("rwxrwxr-x"));
    installed = cache.install(Component.ETCD, built);
  }

  @Test
  void theCacheItMakesIsWritableByItsOwnerOnlyAndItsBinariesAreFound() throws IOException {
    assertThat(mode(cacheRoot)).isEqualTo("rwxr-xr-x");
    assertThat(mode(cache.directory())).isEqualTo("rwxr-xr-x");
    // Whatever the source's mode was: a group-writable build output becomes the cache's mode.
    assertThat(mode(installed)).isEqualTo("rwxr-xr-x");
    assertThat(cache.find(Component.ETCD)).contains(installed);
  }

  @Test
  void aGroupWritableCacheDirectoryIsRefusedWithTheFix() throws IOException {
    Files.setPosixFilePermissions(cache.directory(), PosixFilePermissions.fromString("rwxrwxr-x"));

    assertThatThrownBy(() -> cache.find(Component.ETCD))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("Refusing to run " + installed)
        .hasMessageContaining(cache.directory() + " is writable by its group (mode 775)")
        .hasMessageContaining("Fix: chmod go-w " + cache.directory())
        .hasMessageContaining("KUBE_HARNESS_CACHE_DIR");
  }

  @Test
  void aWorldWritableBinaryIsRefused() throws IOException {
    Files.setPosixFilePermissions(installed, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThatThrownBy(() -> cache.find(Component.ETCD))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining(installed + " is writable by its group and every user (mode 777)")
        .hasMessageContaining("Fix: chmod go-w " + installed);
  }

  @Test
  void aCacheAnotherUserOwnsIsRefused() throws IOException {
    assertThat(Stranger.run("id -u").failed()).as("the second user exists").isFalse();
    UserPrincipal stranger =
        tmp.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(Stranger.NAME);
    Files.setOwner(cacheRoot, stranger);

    assertThatThrownBy(() -> cache.find(Component.ETCD))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining(cacheRoot + " is owned by uid")
        .hasMessageContaining("neither you")
        .hasMessageContaining("chown -R");
  }

  @Test
  void aStickyDirectoryOpenToAllMayHoldTheCacheAsTmpDoes() throws Exception {
    Process chmod = new ProcessBuilder("chmod", "1777", tmp.toString()).inheritIO().start();
    assertThat(chmod.waitFor()).isZero();

    assertThat(cache.find(Component.ETCD)).contains(installed);
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
