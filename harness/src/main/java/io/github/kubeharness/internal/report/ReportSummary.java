package io.github.kubeharness.internal.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The short text appended to a failed test's message (and written as {@code summary.txt}): where
 * the report is, then one line each for the namespace's objects, warning events, denied API
 * requests and the controller log, so the likely cause shows without opening a file.
 */
final class ReportSummary {

  private static final int MAX_OBJECTS = 8;
  private static final int MAX_DETAILS = 3;
  private static final int MAX_MESSAGE = 120;

  private ReportSummary() {}

  static String render(
      Path directory,
      Optional<String> cluster,
      String namespace,
      NamespaceDump.Result objects,
      EventTable.Result events,
      PodStatus.Result pods,
      AuditFilter.Result requests,
      ControllerLog.Result log,
      List<String> notes) {
    List<String> lines = new ArrayList<>();
    lines.add("kube-harness report: " + display(directory));
    cluster.ifPresent(c -> lines.add("  cluster: " + c));
    lines.add("  namespace " + namespace + ": " + objects(objects));
    lines.addAll(events(events));
    lines.addAll(pods(pods));
    lines.addAll(requests(requests));
    lines.add(
        log.lines() == 0
            ? "  controller log: no lines captured"
            : "  controller log: "
                + plural(log.lines(), "line")
                + " ("
                + log.warnings()
                + " WARN/ERROR) in controller.log");
    List<String> problems = new ArrayList<>(notes);
    if (!objects.problems().isEmpty()) {
      problems.add(
          plural(objects.problems().size(), "resource type or group")
              + " could not be listed (see the header of objects.yaml)");
    }
    if (events.problem() != null) {
      problems.add(events.problem());
    }
    if (requests.problem() != null) {
      problems.add(requests.problem());
    }
    problems.stream()
        .limit(MAX_DETAILS)
        .forEach(p -> lines.add("  note: " + ReportText.oneLine(p, 200)));
    return String.join("\n", lines) + "\n";
  }

  /** The path relative to the working directory when it lies below it, with a trailing slash. */
  static String display(Path directory) {
    Path absolute = directory.toAbsolutePath().normalize();
    Path workingDirectory = Path.of("").toAbsolutePath();
    Path shown =
        absolute.startsWith(workingDirectory) && !absolute.equals(workingDirectory)
            ? workingDirectory.relativize(absolute)
            : absolute;
    return shown + "/";
  }

  private static String objects(NamespaceDump.Result dump) {
    if (!dump.namespaceFound() && dump.objects().isEmpty()) {
      return "not found (deleted before the report was written?)";
    }
    if (dump.objects().isEmpty()) {
      return "no objects";
    }
    // Objects with unhealthy conditions first: with many objects they are the ones to see.
    List<NamespaceDump.Entry> ordered = new ArrayList<>();
    dump.objects().stream().filter(o -> !o.unhealthyConditions().isEmpty()).forEach(ordered::add);
    dump.objects().stream().filter(o -> o.unhealthyConditions().isEmpty()).forEach(ordered::add);
    List<String> shown = new ArrayList<>();
    for (NamespaceDump.Entry o : ordered.subList(0, Math.min(MAX_OBJECTS, ordered.size()))) {
      String conditions =
          o.unhealthyConditions().isEmpty()
              ? ""
              : " [" + String.join(", ", o.unhealthyConditions()) + "]";
      shown.add(o.kind() + " " + o.name() + conditions);
    }
    if (ordered.size() > MAX_OBJECTS) {
      shown.add("+" + (ordered.size() - MAX_OBJECTS) + " more");
    }
    return plural(dump.objects().size(), "object") + " (" + String.join(", ", shown) + ")";
  }

  private static List<String> events(EventTable.Result events) {
    List<EventTable.Row> warnings = events.warnings();
    if (warnings.isEmpty()) {
      return events.rows().isEmpty()
          ? List.of()
          : List.of("  " + plural(events.rows().size(), "event") + ", no warnings, in events.txt");
    }
    if (warnings.size() == 1) {
      return List.of("  1 warning event: " + describe(warnings.get(0)));
    }
    List<String> lines = new ArrayList<>();
    lines.add("  " + warnings.size() + " warning events in events.txt, newest first:");
    for (int i = warnings.size() - 1; i >= Math.max(0, warnings.size() - MAX_DETAILS); i--) {
      lines.add("    " + describe(warnings.get(i)));
    }
    return lines;
  }

  // Only pods that ran and are unhealthy: on backends without a kubelet every pod is Pending.
  private static List<String> pods(PodStatus.Result pods) {
    if (pods.unhealthy().isEmpty()) {
      return List.of();
    }
    List<String> lines = new ArrayList<>();
    lines.add(
        "  "
            + plural(pods.unhealthy().size(), "unhealthy pod")
            + " of "
            + pods.pods()
            + " (status and logs in pods.txt):");
    pods.unhealthy().stream()
        .limit(MAX_DETAILS)
        .forEach(p -> lines.add("    " + ReportText.oneLine(p, MAX_MESSAGE)));
    if (pods.unhealthy().size() > MAX_DETAILS) {
      lines.add("    +" + (pods.unhealthy().size() - MAX_DETAILS) + " more");
    }
    return lines;
  }

  private static String describe(EventTable.Row event) {
    return event.involved()
        + " "
        + event.reason()
        + ": "
        + ReportText.oneLine(event.message(), MAX_MESSAGE)
        + (event.count() > 1 ? " (x" + event.count() + ")" : "");
  }

  private static List<String> requests(AuditFilter.Result requests) {
    if (!requests.available() || requests.problem() != null) {
      return List.of();
    }
    List<String> lines = new ArrayList<>();
    List<AuditFilter.Request> denied = requests.denied();
    if (denied.isEmpty()) {
      lines.add(
          "  API requests: " + requests.requests().size() + " in api-requests.txt, none denied");
    } else {
      // A controller retries a forbidden call many times; one line per distinct attempt.
      Map<String, Integer> attempts = new LinkedHashMap<>();
      denied.forEach(r -> attempts.merge(r.attempt(), 1, Integer::sum));
      if (attempts.size() == 1) {
        Map.Entry<String, Integer> only = attempts.entrySet().iterator().next();
        lines.add("  " + plural(denied.size(), "denied API request") + ": " + attempt(only));
      } else {
        lines.add("  " + plural(denied.size(), "denied API request") + " in api-requests.txt:");
        attempts.entrySet().stream()
            .limit(MAX_DETAILS)
            .forEach(a -> lines.add("    " + attempt(a)));
        if (attempts.size() > MAX_DETAILS) {
          lines.add("    +" + (attempts.size() - MAX_DETAILS) + " more");
        }
      }
    }
    // 404s are left out: controllers look objects up before creating them.
    Map<Integer, Integer> failures = new TreeMap<>();
    requests.requests().stream()
        .filter(r -> r.code() >= 400 && r.code() != 403 && r.code() != 404)
        .forEach(r -> failures.merge(r.code(), 1, Integer::sum));
    if (!failures.isEmpty()) {
      List<String> codes = new ArrayList<>();
      failures.forEach((code, count) -> codes.add(code + " x" + count));
      int total = failures.values().stream().mapToInt(Integer::intValue).sum();
      lines.add(
          "  "
              + plural(total, "other failed API request")
              + " ("
              + String.join(", ", codes)
              + ") in api-requests.txt");
    }
    return lines;
  }

  private static String attempt(Map.Entry<String, Integer> attempt) {
    return attempt.getKey()
        + " -> 403"
        + (attempt.getValue() > 1 ? " (x" + attempt.getValue() + ")" : "");
  }

  private static String plural(int count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }
}
