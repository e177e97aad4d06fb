package io.github.kubeharness.internal.provision;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.PrivateFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Tools the harness runs beside the Kubernetes binaries (kind), each built once per version from
 * its Go module into {@code <cache>/tools/<name>-<version>} with the same Go toolchain and module
 * proxy as the binaries, and reused from there.
 */
public final class GoTools {

  /** KWOK's Go module and version (the simulated profile's fake nodes). */
  private static final String KWOK_MODULE = "sigs.k8s.io/kwok/cmd/kwok";

  private static final String KWOK_VERSION = "v0.8.0";

  private GoTools() {}

  /** The kwok executable: built from its module into the cache the first time (about 5 min). */
  public static Path kwok(ControlPlaneOptions options) {
    return installed(options, KWOK_MODULE, KWOK_VERSION);
  }

  /**
   * The executable of {@code pkg} at {@code version}, building it on first use (progress goes to
   * the options' progress sink).
   */
  public static Path installed(ControlPlaneOptions options, String pkg, String version) {
    String name = pkg.substring(pkg.lastIndexOf('/') + 1);
    Path tools = options.cacheDirectory().resolve("tools");
    Path target = tools.resolve(name + "-" + version);
    if (Files.isExecutable(target)) {
      return CacheOwnership.requireTrusted(target);
    }
    try {
      PrivateFiles.notWritableByOthers(tools);
      // Build into a private directory and rename: a concurrent JVM never sees half a binary.
      Path staging = Files.createTempDirectory(tools, "." + name + "-");
      try {
        Path built =
            new SourceBuild(
                    options.goCommand(),
                    options.cacheDirectory().resolve("build"),
                    options.progress())
                .goInstall(pkg, version, staging);
        // go install leaves the umask's mode; a group-writable binary would be refused.
        Files.setPosixFilePermissions(built, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.move(built, target, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        io.github.kubeharness.internal.process.RunDirectory.deleteRecursively(staging);
      }
      return CacheOwnership.requireTrusted(target);
    } catch (IOException e) {
      throw new KubeHarnessException(
          "Cannot install " + name + " " + version + " into " + tools + ": " + e, e);
    }
  }
}
