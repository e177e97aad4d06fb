package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.reuse.KeptControlPlane;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keeper's own decision at the end of its idle time, run for real: the keeper moves the state
 * aside, looks at the registered JVMs once more, and puts the state back if one registered
 * meanwhile, else stops everything. That moment lasts microseconds, so the keeper's {@code mv} is a
 * wrapper (first on the PATH the keeper inherits from the JVM that started it) which, once the real
 * {@code mv} has moved the state aside, waits for this test's word: the keeper itself makes both
 * moves and the decision; the test only widens the window and chooses whether a JVM comes.
 */
class KeeperDecisionIT {

  private static final Pattern KEPT = Pattern.compile("KEPT url=(\\S+) run=(\\S+) ms=(\\d+)");
  private static final String IDLE_SECONDS = "2";

  private final Path cache = ControlPlaneOptions.builder().build().cacheDirectory();

  @TempDir Path tmp;
  private Path gate;
  private Path wrappers;

  @BeforeEach
  void wrapTheKeepersMove() throws Exception {
    gate = Files.createDirectory(tmp.resolve("gate"));
    wrappers = Files.createDirectory(tmp.resolve("bin"));
    String realMv =
        Stream.of("/usr/bin/mv", "/bin/mv")
            .filter(p -> Files.isExecutable(Path.of(p)))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no mv in /usr/bin or /bin"));
    Path mv = wrappers.resolve("mv");
    Files.writeString(
        mv,
        String.join(
            "\n",
            "#!/bin/sh",
            realMv + " \"$@\" || exit $?",
            "case \"$1:$2\" in",
            "  */state.properties:*/stopping.properties)",
            "    : > '" + gate + "/held'",
            // At most two minutes, so that a test that fails first leaves no keeper waiting.
            "    n=0",
            "    while [ ! -e '" + gate + "/release' ] && [ $n -lt 1200 ]; do",
            "      sleep 0.1; n=$((n+1))",
            "    done ;;",
            "esac",
            ""));
    Files.setPosixFilePermissions(mv, PosixFilePermissions.fromString("rwx------"));
  }

  @AfterEach
  void releaseAndStop() throws Exception {
    Files.writeString(gate.resolve("release"), "");
    KeptControlPlane.stopAll(cache);
  }

  @Test
  void aJvmThatRegistersWhileTheKeeperDecidesKeepsTheControlPlaneAndAttachesToIt()
      throws Exception {
    Matcher kept = keepAndLeave();
    Path state = Path.of(kept.group(2)).getParent();
    List<Long> pids = RunDirectory.recordedPids(Path.of(kept.group(2)));
    awaitTheKeepersDecision(state);

    // A JVM comes now: it registers, finds the state moved aside and waits for the decision.
    try (ChildJvm second = ChildJvm.start(ReuseChild.class.getName(), IDLE_SECONDS, "wait")) {
      Path registered = state.resolve("clients").resolve(Long.toString(second.process().pid()));
      await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(registered));
      Files.writeString(gate.resolve("release"), "");

      Matcher attached = KEPT.matcher(second.awaitLine(l -> l.startsWith("KEPT "), ReuseIT.CHILD));
      assertThat(attached.find()).isTrue();
      assertThat(attached.group(2)).as("the run the second JVM got").isEqualTo(kept.group(2));
      assertThat(attached.group(1)).isEqualTo(kept.group(1));
      assertThat(state.resolve("state.properties")).as("the keeper put the state back").exists();
      assertThat(pids).allMatch(pid -> ProcessHandle.of(pid).isPresent());
    }
  }

  @Test
  void withNoJvmRegisteredTheKeeperStopsItAndTheNextJvmStartsAFreshOne() throws Exception {
    Matcher kept = keepAndLeave();
    Path run = Path.of(kept.group(2));
    List<Long> pids = RunDirectory.recordedPids(run);
    awaitTheKeepersDecision(run.getParent());

    Files.writeString(gate.resolve("release"), "");

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(pids).noneMatch(pid -> ProcessHandle.of(pid).isPresent());
              assertThat(run).doesNotExist();
            });
    Matcher next = ReuseIT.runChild("600");
    assertThat(next.group(2)).as("a fresh run").isNotEqualTo(kept.group(2));
  }

  /** A child JVM starts a kept control plane whose keeper has this test's mv, and exits. */
  private Matcher keepAndLeave() throws Exception {
    Map<String, String> environment =
        Map.of("PATH", wrappers + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    try (ChildJvm first =
        ChildJvm.start(environment, List.of(), ReuseChild.class.getName(), IDLE_SECONDS)) {
      String line = first.awaitLine(l -> l.startsWith("KEPT "), ReuseIT.CHILD);
      assertThat(first.process().waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      Matcher matcher = KEPT.matcher(line);
      assertThat(matcher.find()).as(line).isTrue();
      return matcher;
    }
  }

  /** The keeper, idle, has moved the state aside and is held before it looks at the JVMs. */
  private void awaitTheKeepersDecision(Path state) {
    await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(gate.resolve("held")));
    assertThat(state.resolve("state.properties")).doesNotExist();
    assertThat(state.resolve("stopping.properties")).exists();
  }
}
