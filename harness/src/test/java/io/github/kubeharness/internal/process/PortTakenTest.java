package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.KubeHarnessException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A component that exits because its port was taken fails its start with {@link PortTaken}, the
 * type a start tries again on new ports; any other exit with a plain {@link KubeHarnessException}.
 */
class PortTakenTest {

  @Test
  void anExitOnABindFailureIsAPortTaken(@TempDir Path dir) {
    ManagedProcess process =
        exiting(dir, "echo 'listen tcp 127.0.0.1:2379: bind: address already in use' >&2; exit 1");

    assertThatThrownBy(() -> process.awaitReady(() -> false, Duration.ofMinutes(1)))
        .isInstanceOf(PortTaken.class)
        .hasMessageContaining("exited with code 1 during start")
        .hasMessageContaining("address already in use");
  }

  @Test
  void anyOtherExitIsNot(@TempDir Path dir) {
    ManagedProcess process = exiting(dir, "echo 'open /nowhere: no such file' >&2; exit 2");

    assertThatThrownBy(() -> process.awaitReady(() -> false, Duration.ofMinutes(1)))
        .isExactlyInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("exited with code 2 during start");
  }

  private static ManagedProcess exiting(Path dir, String script) {
    ManagedProcess process =
        new ManagedProcess(
            "test-component", List.of("/bin/sh", "-c", script), dir.resolve("log"), Map.of());
    process.launch();
    return process;
  }
}
