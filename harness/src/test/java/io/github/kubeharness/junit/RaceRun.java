package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.internal.junit.TestReports;
import io.github.kubeharness.junit.ScenarioRunner.Outcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * One run of a race test as its failure and report tell it, for the replay proofs: the failure's
 * reason (its type and message, without the report's summary) and the schedule the run delivered
 * (the watch events its holds took and the order its schedule released them in, from {@code
 * schedule.txt}; the decisions of its fault rules — which reads were answered stale —, from {@code
 * faults.txt}). Names, uids, resourceVersions, namespaces and times differ between two runs of the
 * same schedule and are left out; the rest must be equal for a replay to be one. A run that timed
 * out or failed to start has another reason and schedule, so it is no replay.
 */
record RaceRun(String reason, List<String> schedule) {

  private static final Pattern TIME = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  ");

  // What differs between runs of one schedule, in messages and log lines.
  private static final List<Pattern> VOLATILE =
      List.of(
          Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), // uid
          Pattern.compile("(?<=resourceVersion[ =:\"]{1,3})\\d+"),
          Pattern.compile("(?<=\\brv )\\d+"),
          Pattern.compile("\\b\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?\\b"), // a time of day
          Pattern.compile("\\b\\d+ ms\\b"),
          Pattern.compile("(?<=\\brule )\\d+"), // numbered per fault proxy, across runs
          // How many writes, events and reconciles a loop got in before the explorer looked.
          Pattern.compile("\\b\\d+(?= (times|writes|watch events|reconciles)\\b)"),
          Pattern.compile("(?<=\\()\\d+(?= to )"),
          // The random suffix of a generated name, and of a test's namespace.
          Pattern.compile("(?<=\\b[a-z][a-z0-9]{0,60}-)[a-z0-9]{5}\\b"));

  /**
   * The run of {@code method} under {@code seed} of {@code scenario} that {@code outcome} reports,
   * read from its report (written when it failed; an earlier run's report of the class is gone by
   * then, so read it before the class runs again).
   */
  static RaceRun of(Class<?> scenario, String method, long seed, Outcome outcome) {
    assertThat(outcome.status()).as("%s under seed %d", method, seed).isEqualTo(Status.FAILED);
    Path report = TestReports.directory(scenario, method + "-seed-" + seed);
    List<String> schedule = new ArrayList<>();
    schedule.addAll(
        lines(report.resolve("schedule.txt")).stream()
            .filter(l -> !l.startsWith("seed "))
            .map(RaceRun::normalized)
            .toList());
    schedule.addAll(
        lines(report.resolve("faults.txt")).stream()
            .map(RaceRun::normalized)
            .filter(l -> Stream.of("stale ", "snapshot ", "answered ").anyMatch(l::startsWith))
            .toList());
    return new RaceRun(reason(outcome.failure()), schedule);
  }

  /** Fails unless {@code replay} failed for this run's reason after delivering its schedule. */
  void assertReplayedBy(RaceRun replay, String what) {
    assertThat(replay.reason()).as("%s: the failure's reason", what).isEqualTo(reason);
    assertThat(replay.schedule()).as("%s: the schedule delivered", what).isEqualTo(schedule);
  }

  private static String reason(Throwable failure) {
    String message = String.valueOf(failure.getMessage());
    int summary = message.indexOf("\n\nkube-harness report: ");
    return failure.getClass().getName()
        + ": "
        + normalized((summary < 0 ? message : message.substring(0, summary)).strip());
  }

  private static String normalized(String line) {
    String text = TIME.matcher(line).replaceFirst("");
    for (Pattern pattern : VOLATILE) {
      text = pattern.matcher(text).replaceAll("*");
    }
    return text.replaceAll(" {2,}", " ");
  }

  private static List<String> lines(Path file) {
    if (!Files.exists(file)) {
      return List.of();
    }
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
