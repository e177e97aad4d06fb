package io.github.kubeharness.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.archetype.Commands.Finished;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The local Docker engine, for a generated project's {@code make docker-build}: its Jib base image
 * and the cleanup of what a test made.
 */
final class Docker {

  /**
   * The generated project's default Jib base ({@code JIB_FROM}), which {@code make jre-image} of
   * this repository builds FROM scratch: nothing is pulled.
   */
  static final String JRE_BASE = "kube-harness/jre:17";

  private Docker() {}

  /** Fails with the fix unless an engine answers; builds {@link #JRE_BASE} when it is missing. */
  static void requireEngineAndJreBase(Path logs) throws InterruptedException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    assertThat(run(logs, "docker-info.log", "docker", "info").exitCode())
        .as(
            "a Docker engine for make docker-build (docker info failed; make test starts one:"
                + " hack/test-prerequisites.sh)")
        .isZero();
    if (run(logs, "jre-base.log", "docker", "image", "inspect", JRE_BASE).exitCode() != 0) {
      Commands.run(root, logs.resolve("jre-image.log"), Map.of(), List.of("make", "jre-image"))
          .succeeded();
    }
  }

  /** {@code docker image inspect --format format image}, stripped. */
  static String inspect(Path logs, String image, String format) throws InterruptedException {
    return run(logs, "inspect.log", "docker", "image", "inspect", "--format", format, image)
        .succeeded()
        .output()
        .strip();
  }

  /** Runs a docker command in this module's directory; its output in {@code logs/log}. */
  static Finished run(Path logs, String log, String... command) throws InterruptedException {
    return Commands.run(Path.of("."), logs.resolve(log), Map.of(), List.of(command));
  }
}
