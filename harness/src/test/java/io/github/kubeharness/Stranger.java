package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A second, unprivileged local user ({@value #NAME}), for the checks "another user of the machine
 * gets nothing": its shell commands run through {@code runuser}, as that user would type them.
 * Acting as another user needs root (CI runs as root); the user itself is made by {@code
 * hack/second-user.sh}, which {@code .ci/run} and {@code make test} share.
 */
public final class Stranger {

  public static final String NAME = "kh-stranger";
  private static final Path SETUP = Path.of("..", "hack", "second-user.sh");

  private Stranger() {}

  /** What a command printed (stdout and stderr) and its exit code. */
  public record Result(int exitCode, String output) {
    public boolean failed() {
      return exitCode != 0;
    }
  }

  /** Runs {@code script} with {@code /bin/sh -c} as the second user, from {@code /}. */
  public static Result run(String script) {
    requireAvailable();
    try {
      Process process =
          new ProcessBuilder("runuser", "-u", NAME, "--", "/bin/sh", "-c", script)
              .directory(Path.of("/").toFile())
              .redirectErrorStream(true)
              .start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s: finished", script).isTrue();
      return new Result(process.exitValue(), output);
    } catch (IOException e) {
      throw new IllegalStateException("Cannot run as " + NAME + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@code curl} as the second user: any server certificate, no identity of its own; prints the
   * body and then the status code on a line of its own ({@code 000} when no answer came).
   */
  public static Result curl(String url, String... extra) {
    StringBuilder command = new StringBuilder("curl -sS -k --max-time 5 -w '\\n%{http_code}' ");
    for (String argument : extra) {
      command.append('\'').append(argument.replace("'", "'\\''")).append("' ");
    }
    return run(command.append('\'').append(url).append('\'').toString());
  }

  /** The user exists and this JVM can act as it; the failure says how to get there. */
  private static void requireAvailable() {
    String uid = String.valueOf(ProcessHandle.current().info().user().orElse(""));
    assertThat(uid)
        .as(
            "acting as the second local user needs root (CI runs as root); run the suite as root,"
                + " as .ci/run does")
        .isEqualTo("root");
    if (exitCode(List.of("id", "-u", NAME)) != 0) {
      assertThat(exitCode(List.of("bash", SETUP.toString())))
          .as("%s is missing and %s could not create it", NAME, SETUP)
          .isZero();
    }
  }

  private static int exitCode(List<String> command) {
    try {
      Process process =
          new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return process.waitFor(60, TimeUnit.SECONDS) ? process.exitValue() : -1;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}
