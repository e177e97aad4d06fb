package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Stranger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PrivateFiles} in a directory shared with other users, as {@code /tmp} is (mode 1777): a
 * credential goes into a file it creates new, owner-only; a link or a stranger's file planted at
 * the path is refused and left as it was, and so is whatever a link points at.
 */
class PrivateFilesTest {

  private static final String KEY = "-----BEGIN PRIVATE KEY-----\nsecret\n";

  @TempDir Path tmpDir;

  private Path shared;
  private Path victim;

  @BeforeEach
  void setUp() throws Exception {
    Path base = tmpDir.toRealPath();
    // The second user must reach the shared directory, as it reaches /tmp.
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwx--x--x"));
    shared = Files.createDirectory(base.resolve("shared"));
    chmod("1777", shared);
    victim = Files.writeString(base.resolve("victim"), "the user's own file\n");
    Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r--r--"));
  }

  @Test
  void aNewFileIsOwnerOnly() throws IOException {
    Path written = PrivateFiles.write(shared.resolve("kc"), KEY);

    assertThat(written).hasContent(KEY.strip());
    assertThat(mode(written)).isEqualTo("rw-------");
  }

  @Test
  void aSymbolicLinkAtThePathIsRefusedAndWhatItPointsAtIsUntouched() throws IOException {
    Path link = Files.createSymbolicLink(shared.resolve("kc"), victim);

    assertThatThrownBy(() -> PrivateFiles.write(link, KEY))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("Refusing to write to " + link)
        .hasMessageContaining("a symbolic link to " + victim)
        .hasMessageContaining("rm " + link);

    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(victim).hasContent("the user's own file");
    assertThat(mode(victim)).isEqualTo("rw-r--r--");
  }

  @Test
  void aFileAnotherUserPlantedIsRefusedAndKeepsItsContent() throws IOException {
    Path planted = shared.resolve("kc");
    assertThat(Stranger.run("echo theirs > " + planted + " && chmod 666 " + planted).failed())
        .isFalse();

    assertThatThrownBy(() -> PrivateFiles.write(planted, KEY))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("Refusing to write to " + planted)
        .hasMessageContaining("owned by uid");

    assertThat(planted).hasContent("theirs");
  }

  @Test
  void aRegularFileOfOursIsReplacedByANewOwnerOnlyFileAndItsOtherNamesKeepTheirContent()
      throws IOException {
    Path path = shared.resolve("kc");
    Files.createLink(path, victim); // a hard link: writing through it would change the victim

    PrivateFiles.write(path, KEY);

    assertThat(path).hasContent(KEY.strip());
    assertThat(mode(path)).isEqualTo("rw-------");
    assertThat(victim).hasContent("the user's own file");
    assertThat(mode(victim)).isEqualTo("rw-r--r--");
  }

  @Test
  void createRefusesALinkAndLeavesTheModeOfItsTarget() throws IOException {
    Path link = Files.createSymbolicLink(shared.resolve("pids"), victim);

    assertThatThrownBy(() -> PrivateFiles.create(link))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("a symbolic link to " + victim);

    assertThat(mode(victim)).isEqualTo("rw-r--r--");
  }

  @Test
  void directoryRefusesALinkAndLeavesTheModeOfItsTarget() throws IOException {
    Path elsewhere = Files.createDirectory(tmpDir.toRealPath().resolve("elsewhere"));
    Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path link = Files.createSymbolicLink(shared.resolve("pki"), elsewhere);

    assertThatThrownBy(() -> PrivateFiles.directory(link))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("a symbolic link to " + elsewhere);

    assertThat(mode(elsewhere)).isEqualTo("rwxr-xr-x");
  }

  @Test
  void aNewDirectoryIsOwnerOnly() throws IOException {
    Path made = PrivateFiles.directory(shared.resolve("run").resolve("pki"));

    assertThat(mode(made)).isEqualTo("rwx------");
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }

  private static void chmod(String mode, Path path) throws Exception {
    Process chmod = new ProcessBuilder("chmod", mode, path.toString()).inheritIO().start();
    assertThat(chmod.waitFor()).as("chmod %s %s", mode, path).isZero();
  }
}
