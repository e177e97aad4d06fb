package io.github.kubeharness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.ChildJvm;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
}
