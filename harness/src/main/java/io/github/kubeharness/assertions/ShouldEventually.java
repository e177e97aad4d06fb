package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.github.kubeharness.assertions.ObjectView.Target;
import io.github.kubeharness.assertions.Observation.Change;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The messages of timed-out {@code eventually} and broken {@code consistently} assertions. Each
 * tells the whole story, so a failure in CI can be understood from the report alone: what was
 * expected, why the last check failed, the object as last seen, and every change seen meanwhile.
 */
final class ShouldEventually {

  /** History lines kept in full; longer histories keep their start and their end. */
  static final int MAX_HISTORY_LINES = 30;

  private static final int HISTORY_HEAD = 5;

  private ShouldEventually() {}

  /**
   * The message for {@code expectation} not met within {@code timeout}.
   *
   * @param checked the observation the last check ran against
   * @param why the last check's failure
   * @param history every observation, oldest first
   */
  static String shouldEventually(
      Target target,
      String expectation,
      Duration timeout,
      Observation<?> checked,
      AssertionError why,
      List<? extends Observation<?>> history) {
    StringBuilder message = expected(target, expectation, " within ", timeout).append('.');
    section(message, "last check failed:", reason(why));
    if (history.stream().allMatch(o -> o.object() == null)) {
      message
          .append("\nnever observed: the object did not exist at any point. Is the controller that")
          .append(" should create it running")
          .append(target.namespace() == null ? "" : " and watching namespace " + target.namespace())
          .append('?');
      return message.toString();
    }
    appendObject(message, "last observed object", checked, history);
    section(message, "changes seen while waiting:", historyLines(history));
    return message.toString();
  }

  /**
   * The message for {@code expectation} broken at observation {@code broken} before {@code
   * duration} was over.
   */
  static String shouldConsistently(
      Target target,
      String expectation,
      Duration duration,
      Observation<?> broken,
      AssertionError why,
      List<? extends Observation<?>> history) {
    StringBuilder message =
        expected(target, expectation, " throughout ", duration)
            .append(", but at ")
            .append(Observation.elapsed(broken.elapsed()))
            .append(" (")
            .append(broken.change() == Change.INITIAL ? "its initial state" : broken.change())
            .append(") it did not.");
    section(message, "check failed:", reason(why));
    appendObject(message, "object at that point", broken, history);
    section(message, "changes seen while watching:", historyLines(history));
    return message.toString();
  }

  private static StringBuilder expected(
      Target target, String expectation, String how, Duration duration) {
    return new StringBuilder("Expected ")
        .append(target)
        .append(' ')
        .append(expectation)
        .append(how)
        .append(human(duration));
  }

  /** {@code 30 s}, {@code 500 ms}, {@code 1.5 s}. */
  static String human(Duration duration) {
    long millis = duration.toMillis();
    if (millis < 1000) {
      return millis + " ms";
    }
    if (millis % 1000 == 0) {
      return millis / 1000 + " s";
    }
    return String.format(Locale.ROOT, "%.3f s", millis / 1000.0).replaceAll("0+ s$", " s");
  }

  private static void appendObject(
      StringBuilder message,
      String title,
      Observation<?> observation,
      List<? extends Observation<?>> history) {
    HasMetadata object = observation.object();
    if (object == null) {
      // Absent at this point but present at some other: show the last state it had.
      Observation<?> lastPresent = null;
      for (Observation<?> o : history) {
        if (o.object() != null && o.elapsed().compareTo(observation.elapsed()) <= 0) {
          lastPresent = o;
        }
      }
      message.append('\n').append(title).append(": absent at ");
      message.append(Observation.elapsed(observation.elapsed()));
      if (lastPresent == null) {
        return;
      }
      observation = lastPresent;
      object = lastPresent.object();
      title = "before that";
    }
    String at = Observation.elapsed(observation.elapsed());
    String when =
        switch (observation.change()) {
          case INITIAL -> "initial state at " + at;
          case DELETED -> "deleted at " + at + ", final state";
          default -> observation.change() + " at " + at;
        };
    section(
        message,
        title + " (" + when + ", " + Observation.versions(object) + "):",
        ObjectView.yaml(object, ObjectView.MAX_YAML_LINES));
  }

  private static String reason(AssertionError why) {
    String text = String.valueOf(why.getMessage()).strip();
    return text.isEmpty() ? why.toString() : text;
  }

  private static String historyLines(List<? extends Observation<?>> history) {
    StringBuilder lines = new StringBuilder();
    int size = history.size();
    for (int i = 0; i < size; i++) {
      boolean head = i < HISTORY_HEAD;
      boolean tail = i >= size - (MAX_HISTORY_LINES - HISTORY_HEAD);
      if (size <= MAX_HISTORY_LINES || head || tail) {
        lines.append(history.get(i).line()).append('\n');
      } else if (i == HISTORY_HEAD) {
        lines.append("... ").append(size - MAX_HISTORY_LINES).append(" more changes ...\n");
      }
    }
    return lines.toString();
  }

  private static void section(StringBuilder message, String title, String body) {
    message.append('\n').append(title).append('\n').append(ObjectView.indent(body, "  "));
    if (message.charAt(message.length() - 1) == '\n') {
      message.setLength(message.length() - 1);
    }
  }
}
