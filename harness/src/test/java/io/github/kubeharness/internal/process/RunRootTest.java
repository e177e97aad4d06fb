package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.TemporaryProperty;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run root, {@code <tmp>/kube-harness-<uid>}: made owner-only when absent, and refused, with
 * nothing in it touched, when someone else could have made it (a link, open to others, another
 * user's). Each hostile root holds a planted file and a planted stale run whose recorded child is
 * alive, so a sweep that ran anyway would show (the child killed, the run deleted).
 */
class RunRootTest {

  @RegisterExtension final StartedProcesses processes = new StartedProcesses();

  /** The second user the root of another owner is given to; hack/second-user.sh makes it. */
  private static final String STRANGER = "kh-stranger";

  @TempDir Path tmpDir;

  private Path tmp;
  private Path root;

  @BeforeEach
  void setUp() throws IOException {
    tmp = tmpDir.toRealPath();
    root = tmp.resolve("kube-harness-" + RunRoot.currentUid().orElseThrow());
  }

  @Test
  void anAbsentRootIsMadeOwnerOnlyAndNamedAfterTheUid() throws IOException {
    Path made = RunRoot.under(tmp);

    assertThat(made).isEqualTo(root).isDirectory();
    assertThat(mode(made)).isEqualTo("rwx------");
    long fileOwner = uidOf(Files.createFile(tmp.resolve("probe")));
    assertThat(uidOf(made)).isEqualTo(fileOwner).isEqualTo(RunRoot.currentUid().orElseThrow());
    assertThat(RunRoot.under(tmp)).as("an existing good root is used").isEqualTo(made);
  }

  @Test
  void aRootThatIsASymbolicLinkIsRefusedAndNothingBehindItTouched() throws Exception {
    Path target = Files.createDirectories(tmp.resolve("theirs"));
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
    Files.createSymbolicLink(root, target);
    Process child = plant(target, root);
    Map<Path, String> before = snapshot(target);

    assertRefused("a symbolic link to " + target);

    assertThat(Files.isSymbolicLink(root)).isTrue();
    assertThat(snapshot(target)).isEqualTo(before);
    assertThat(StartedProcesses.exitsWithinAMoment(child)).as("alive").isFalse();
  }

  @Test
  void aRootOpenToOthersIsRefusedAndNothingInItTouched() throws Exception {
    Files.createDirectory(root);
    Process child = plant(root, root);
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
    Map<Path, String> before = snapshot(root);

    assertRefused("mode rwxrwxrwx");

    assertThat(snapshot(root)).isEqualTo(before);
    assertThat(StartedProcesses.exitsWithinAMoment(child)).as("alive").isFalse();
  }

  @Test
  void aRootOfAnotherUserIsRefusedAndNothingInItTouched() throws Exception {
    UserPrincipal stranger = stranger();
    Files.createDirectory(root);
    Process child = plant(root, root);
    // Owner-only, so that only the owner is wrong.
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx------"));
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.toList()) {
        Files.setOwner(p, stranger);
      }
    }
    Map<Path, String> before = snapshot(root);

    assertRefused(
        "owned by uid "
            + uidOf(root)
            + ", not you (uid "
            + RunRoot.currentUid().orElseThrow()
            + ")");

    assertThat(snapshot(root)).isEqualTo(before);
    assertThat(StartedProcesses.exitsWithinAMoment(child)).as("alive").isFalse();
  }

  @Test
  void aRootThatIsAFileIsRefused() throws IOException {
    Files.writeString(root, "not a directory");

    assertRefused("not a directory");

    assertThat(root).hasContent("not a directory");
  }

  @Test
  void defaultRootIsThePerUserRootUnderJavaIoTmpdirAndIsVerifiedEachTime() throws Exception {
    try (TemporaryProperty property = TemporaryProperty.set("java.io.tmpdir", tmp.toString())) {
      Path made = RunDirectory.defaultRoot();
      assertThat(made).isEqualTo(root);
      assertThat(mode(made)).isEqualTo("rwx------");
      try (RunDirectory run = RunDirectory.create(made)) {
        assertThat(run.path().getParent()).isEqualTo(root);
      }

      Process child = plant(root, root);
      Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
      Map<Path, String> before = snapshot(root);

      assertThatThrownBy(RunDirectory::defaultRoot)
          .isInstanceOf(KubeHarnessException.class)
          .hasMessageContaining(root + ": it is mode rwxr-xr-x");
      assertThat(snapshot(root)).isEqualTo(before);
      assertThat(StartedProcesses.exitsWithinAMoment(child)).as("alive").isFalse();
    }
  }

  /** Calls {@link RunRoot#under} and checks the message: path, what is wrong, the fix. */
  private void assertRefused(String what) {
    assertThatThrownBy(() -> RunRoot.under(tmp))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining(
            "Refusing to use the kube-harness run root " + root + ": it is " + what)
        .hasMessageContaining("rm -rf " + root)
        .hasMessageContaining("set java.io.tmpdir to a directory of your own");
  }

  /**
   * Plants a file and a stale run (its JVM gone) under {@code directory}, the run recording a live
   * child whose command line names the run as seen through {@code asSeenFrom}: everything a sweep
   * would delete or kill.
   */
  private Process plant(Path directory, Path asSeenFrom) throws Exception {
    Files.writeString(directory.resolve("planted"), "left by someone", StandardCharsets.UTF_8);
    String name = "run-" + StartedProcesses.exitedPid() + "-x";
    Path run = Files.createDirectories(directory.resolve(name));
    Path log = Files.createFile(run.resolve("etcd.log"));
    Process child = processes.tailing(asSeenFrom.resolve(name).resolve(log.getFileName()));
    RunDirectory.record(run, ProcessIdentity.of(child.pid()));
    return child;
  }

  /** Every entry under {@code directory} (the directory too): type, owner, mode, mtime. */
  private static Map<Path, String> snapshot(Path directory) throws IOException {
    Map<Path, String> entries = new LinkedHashMap<>();
    try (Stream<Path> all = Files.walk(directory)) {
      for (Path p : all.sorted().toList()) {
        PosixFileAttributes a =
            Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        entries.put(
            directory.relativize(p),
            (a.isDirectory() ? "d " : "f ")
                + a.owner().getName()
                + " "
                + PosixFilePermissions.toString(a.permissions())
                + " "
                + a.lastModifiedTime().toMillis()
                + " "
                + a.size());
      }
    }
    assertThat(entries).as("planted entries").hasSizeGreaterThanOrEqualTo(4);
    return entries;
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }

  private static long uidOf(Path p) throws IOException {
    return ((Number) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
  }

  /**
   * The second user, made by {@code hack/second-user.sh} if missing (the same script CI runs);
   * changing a directory's owner to it needs root, as on CI's machines.
   */
  private UserPrincipal stranger() throws Exception {
    if (!userExists()) {
      Path script = repositoryFile("hack/second-user.sh");
      Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() != 0 || !userExists()) {
        fail(
            "This test needs a second user, "
                + STRANGER
                + ", and "
                + script
                + " could not create it (exit "
                + p.exitValue()
                + "): "
                + output.strip()
                + "\nRun it once as root: sudo bash hack/second-user.sh");
      }
    }
    if (RunRoot.currentUid().orElseThrow() != 0) {
      fail(
          "This test gives a directory to another user ("
              + STRANGER
              + "), which only root may do: run it as root, as CI does.");
    }
    return tmp.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(STRANGER);
  }

  private static boolean userExists() throws Exception {
    Process id =
        new ProcessBuilder("id", STRANGER)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    return id.waitFor() == 0;
  }

  // Surefire runs in the module's directory; the script is at the repository's top.
  private static Path repositoryFile(String relative) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve(relative))) {
        return dir.resolve(relative);
      }
    }
    return fail(relative + " not found above " + Path.of("").toAbsolutePath());
  }
}
