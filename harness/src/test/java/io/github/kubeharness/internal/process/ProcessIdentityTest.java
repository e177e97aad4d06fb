package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A recorded process is ours only while its start time matches and its command line names the run
 * as a whole path; Java and the {@code /bin/sh} scripts read the same start time.
 */
class ProcessIdentityTest {

  private static final Path RUN = Path.of("/tmp/kube-harness-0/run-123");

  @Test
  void aCommandLineNamesARunOnlyAsAWholePath() {
    assertThat(ProcessIdentity.mentions("tail -f /tmp/kube-harness-0/run-123/etcd.log", RUN))
        .isTrue();
    assertThat(ProcessIdentity.mentions("etcd --data-dir=/tmp/kube-harness-0/run-123", RUN))
        .isTrue();
    assertThat(ProcessIdentity.mentions("x --dir /tmp/kube-harness-0/run-123 --y", RUN)).isTrue();
    assertThat(ProcessIdentity.mentions("x /tmp/kube-harness-0/run-123,/other", RUN)).isTrue();

    assertThat(ProcessIdentity.mentions("tail -f /tmp/kube-harness-0/run-1234/etcd.log", RUN))
        .as("run-1234 is not run-123")
        .isFalse();
    assertThat(ProcessIdentity.mentions("etcd --data-dir=/tmp/kube-harness-0/run-1234", RUN))
        .isFalse();
    assertThat(ProcessIdentity.mentions("x /tmp/kube-harness-0/run-123-4/etcd.log", RUN)).isFalse();
    assertThat(ProcessIdentity.mentions("x /tmp/kube-harness-0/run-123.old", RUN)).isFalse();
    assertThat(ProcessIdentity.mentions("x /home/tmp/kube-harness-0/run-123/etcd.log", RUN))
        .as("another path that ends like it")
        .isFalse();
    assertThat(ProcessIdentity.mentions("sleep 60", RUN)).isFalse();

    assertThat(
            ProcessIdentity.mentions(
                "x /tmp/kube-harness-0/run-1234/a /tmp/kube-harness-0/run-123/b", RUN))
        .as("a later whole occurrence counts")
        .isTrue();
  }

  @Test
  void recordsReadBackAndJunkIsNoRecord() {
    ProcessIdentity recorded = new ProcessIdentity(42, "12345");
    assertThat(recorded.format()).isEqualTo("42 12345");
    assertThat(ProcessIdentity.parse("42 12345")).contains(recorded);
    assertThat(ProcessIdentity.parse(" 42 ")).contains(new ProcessIdentity(42, ""));
    assertThat(new ProcessIdentity(42, "").format()).isEqualTo("42");

    assertThat(ProcessIdentity.parse(null)).isEmpty();
    assertThat(ProcessIdentity.parse("")).isEmpty();
    assertThat(ProcessIdentity.parse("abc")).isEmpty();
    assertThat(ProcessIdentity.parse("42 abc")).isEmpty();
    assertThat(ProcessIdentity.parse("42 1 2")).isEmpty();
    assertThat(ProcessIdentity.parse("99999999999999999999 1")).isEmpty();
  }

  @Test
  void aProcessIsLiveOnlyWithItsOwnStartTime() throws Exception {
    Process sleep = new ProcessBuilder("sleep", "60").start();
    try {
      ProcessIdentity now = ProcessIdentity.of(sleep.pid());
      assertThat(now.startTime()).isNotEmpty();
      assertThat(now.live()).isPresent();
      assertThat(new ProcessIdentity(sleep.pid(), "").live()).as("none recorded").isPresent();
      assertThat(new ProcessIdentity(sleep.pid(), now.startTime() + "0").live()).isEmpty();
    } finally {
      sleep.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    assertThat(ProcessIdentity.of(sleep.pid()).live()).as("gone").isEmpty();
  }

  @Test
  void theShellReadsTheStartTimeJavaRecorded() throws Exception {
    Process sleep = new ProcessBuilder("sleep", "60").start();
    try {
      String start = ProcessIdentity.of(sleep.pid()).startTime();

      assertThat(sameStart(sleep.pid(), start)).isEqualTo("same");
      assertThat(sameStart(sleep.pid(), start + "0")).isEqualTo("other");
      assertThat(sameStart(sleep.pid(), "")).as("nothing recorded to compare").isEqualTo("same");
    } finally {
      sleep.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void theShellKillsARecordedProcessOnlyWithItsOwnStartTime() throws Exception {
    Process sleep = new ProcessBuilder("sleep", "60").start();
    try {
      String start = ProcessIdentity.of(sleep.pid()).startTime();

      shell("kill_recorded " + sleep.pid() + " " + start + "0");
      assertThat(sleep.waitFor(500, TimeUnit.MILLISECONDS)).as("another start: alive").isFalse();

      shell("kill_recorded " + sleep.pid() + " " + start);
      assertThat(sleep.waitFor(30, TimeUnit.SECONDS)).as("its own start: killed").isTrue();
    } finally {
      sleep.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static String sameStart(long pid, String start) throws Exception {
    return shell("if same_start " + pid + " '" + start + "'; then echo same; else echo other; fi");
  }

  private static String shell(String command) throws Exception {
    Process sh =
        new ProcessBuilder("/bin/sh", "-c", ProcessIdentity.SHELL_FUNCTIONS + command)
            .redirectErrorStream(true)
            .start();
    String out = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out;
  }
}
