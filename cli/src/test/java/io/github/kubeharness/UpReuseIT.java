package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.reuse.KeptControlPlane;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code kube-harness up --reuse} keeps a control plane the next JVM's tests attach to, and {@code
 * kube-harness down} stops it: the CLI's part of {@code kubeharness.reuse} (the rest is the
 * harness's ReuseIT, whose child JVM this uses).
 */
class UpReuseIT {

  private final Path cache = ControlPlaneOptions.builder().build().cacheDirectory();

  @AfterEach
  void stopKept() {
    KeptControlPlane.stopAll(cache);
  }

  @Test
  void upReuseLeavesOneForTheTestsAndDownStopsEveryKeptControlPlaneAtOnce() throws Exception {
    // --backend local: the suite also runs with KUBE_HARNESS_BACKEND=container, which up honours.
    String up = ChildJvm.cli("up", "--reuse", "--backend", "local").readToEnd(ReuseIT.CHILD);
    assertThat(up).contains("kept for the next JVMs");
    Matcher attached = ReuseIT.runChild("600");
    assertThat(up).contains("ready at " + attached.group(1));
    Path run = Path.of(attached.group(2));
    List<Long> pids = RunDirectory.recordedPids(run);
    String out = ChildJvm.cli("down").readToEnd(ReuseIT.CHILD);
    assertThat(out).contains("stopped 1 kept control plane");
    assertThat(pids).noneMatch(pid -> ProcessHandle.of(pid).isPresent());
    assertThat(run).doesNotExist();
    assertThat(run.getParent()).isDirectoryNotContaining("glob:**/state.properties");
  }
}
