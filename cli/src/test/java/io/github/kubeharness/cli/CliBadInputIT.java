package io.github.kubeharness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CLI's rows of the harness's BadInputIT: bad arguments are a usage error, exit code 2
 * (picocli's, as for any CLI), whose message names the culprit, what was wrong and the fix (the
 * usage).
 */
class CliBadInputIT {

  static Stream<Arguments> rows() {
    return Stream.of(
        Arguments.of(
            "CLI: unknown command",
            List.of("frobnicate"),
            List.of("'frobnicate'", "Unmatched argument", "Usage: kube-harness [-hV] [COMMAND]")),
        Arguments.of(
            "CLI: unknown profile",
            List.of("up", "--profile", "maximal"),
            List.of(
                "Invalid value for option '--profile'",
                "Unknown profile 'maximal' in --profile",
                "Expected one of: minimal, standard, simulated")),
        Arguments.of(
            "CLI: unknown option",
            List.of("provision", "--turbo"),
            List.of("'--turbo'", "Unknown option", "Usage: kube-harness provision")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void badArgumentsAreAUsageErrorNamingTheCulpritWhatWasWrongAndTheFix(
      String row, List<String> args, List<String> culpritWrongFix) throws Exception {
    try (ChildJvm child = ChildJvm.cli(args.toArray(String[]::new))) {
      assertThat(child.process().waitFor(1, TimeUnit.MINUTES)).as("the CLI exits").isTrue();
      String output = child.readToEnd(Duration.ofMinutes(1));
      assertThat(output).as(row).contains(culpritWrongFix);
      assertThat(child.process().exitValue())
          .as(row + ": the exit code (" + output + ")")
          .isEqualTo(2);
    }
  }

  /**
   * {@code up --kubeconfig} at a symbolic link (planted in /tmp by someone else, say) is refused
   * before a control plane starts, naming the path and the fix; the link's target keeps its
   * content, so the admin key never lands where the link points.
   */
  @Test
  void aKubeconfigPathThatIsASymbolicLinkIsRefusedAndItsTargetKeptAsItWas(@TempDir Path tmp)
      throws Exception {
    Path target = Files.writeString(tmp.resolve("bashrc"), "the user's own file\n");
    Path link = Files.createSymbolicLink(tmp.resolve("kc"), target);

    try (ChildJvm child =
        ChildJvm.cli("up", "--backend", "local", "--kubeconfig", link.toString())) {
      assertThat(child.process().waitFor(1, TimeUnit.MINUTES)).as("the CLI exits").isTrue();
      String output = child.readToEnd(Duration.ofMinutes(1));
      assertThat(output)
          .contains(
              "Refusing to write to " + link,
              "a symbolic link to " + target,
              "Fix: remove it (rm " + link + ")")
          .doesNotContain("ready at");
      assertThat(child.process().exitValue()).as(output).isEqualTo(1);
    }
    assertThat(target).hasContent("the user's own file");
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }
}
