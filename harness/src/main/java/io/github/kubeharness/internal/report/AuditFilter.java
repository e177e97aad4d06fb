package io.github.kubeharness.internal.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The API requests of one test as {@code api-requests.txt}, read from the apiserver's JSON-lines
 * audit log: requests on objects of the namespace (or on the Namespace itself) received since the
 * test started, one per line as {@code time user verb resource name -> code}, with {@code DENIED}
 * after each 403. Long-running requests (watches) are logged at {@code ResponseStarted} and only
 * complete when they end, so a watch still open is listed from its start, marked {@code open}.
 */
final class AuditFilter {

  static final String NOT_AVAILABLE = "(audit log not available with this backend)";

  /** One completed request. {@code code} is 0 when the log has none. */
  record Request(
      Instant time,
      String user,
      String verb,
      String resource,
      String name,
      int code,
      String why,
      boolean open) {

    boolean denied() {
      return code == 403;
    }

    /** {@code mallory create configmaps}: who tried what, for grouping in the summary. */
    String attempt() {
      return user + " " + verb + " " + resource;
    }
  }

  /** The requests found (oldest first), a problem reading the log (or null), the file's text. */
  record Result(boolean available, List<Request> requests, String problem, String text) {

    List<Request> denied() {
      return requests.stream().filter(Request::denied).toList();
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private AuditFilter() {}

  static Result read(Optional<Path> auditLog, String namespace, Instant since) {
    if (auditLog.isEmpty()) {
      return new Result(false, List.of(), null, NOT_AVAILABLE + "\n");
    }
    Path file = auditLog.get();
    Pattern namespaceUri =
        Pattern.compile("/namespaces/" + Pattern.quote(namespace) + "(?:[/?]|$)");
    // By audit ID: a watch's ResponseStarted entry is replaced by its ResponseComplete one.
    Map<String, Request> requests = new LinkedHashMap<>();
    String problem = null;
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      while ((line = reader.readLine()) != null) {
        // The log covers every test of the JVM: only parse lines that can match.
        if (!line.contains(namespace)
            || !(line.contains("ResponseComplete") || line.contains("ResponseStarted"))) {
          continue;
        }
        JsonNode entry = parse(line);
        Request request = entry == null ? null : request(entry, namespace, namespaceUri, since);
        if (request != null) {
          String id = entry.path("auditID").asText(line);
          if (!request.open() || !requests.containsKey(id)) {
            requests.put(id, request);
          }
        }
      }
    } catch (NoSuchFileException e) {
      problem = "audit log " + file + " does not exist";
    } catch (IOException | RuntimeException e) {
      problem = "cannot read audit log " + file + ": " + e;
    }
    // The log is in completion order; a reader follows the order requests were made in.
    List<Request> sorted = new ArrayList<>(requests.values());
    sorted.sort(Comparator.comparing(Request::time));
    return new Result(
        true, List.copyOf(sorted), problem, render(file, namespace, since, sorted, problem));
  }

  private static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      // A line being written while we read, or damaged: not worth failing the report over.
      return null;
    }
  }

  private static Request request(
      JsonNode entry, String namespace, Pattern namespaceUri, Instant since) {
    String stage = entry.path("stage").asText();
    boolean open = "ResponseStarted".equals(stage);
    if (!open && !"ResponseComplete".equals(stage)) {
      return null;
    }
    Instant received = instant(entry.path("requestReceivedTimestamp").asText(null));
    if (received == null || received.isBefore(since)) {
      return null;
    }
    JsonNode ref = entry.path("objectRef");
    boolean inNamespace =
        namespace.equals(ref.path("namespace").asText(null))
            || ("namespaces".equals(ref.path("resource").asText(null))
                && namespace.equals(ref.path("name").asText(null)))
            || namespaceUri.matcher(entry.path("requestURI").asText("")).find();
    if (!inNamespace) {
      return null;
    }
    String resource = ref.path("resource").asText("");
    String subresource = ref.path("subresource").asText("");
    if (resource.isEmpty()) {
      resource = entry.path("requestURI").asText("-");
    } else if (!subresource.isEmpty()) {
      resource = resource + "/" + subresource;
    }
    String user = entry.path("user").path("username").asText("-");
    String impersonated = entry.path("impersonatedUser").path("username").asText("");
    if (!impersonated.isEmpty()) {
      user = user + " (as " + impersonated + ")";
    }
    JsonNode status = entry.path("responseStatus");
    int code = status.path("code").asInt(0);
    String why = code >= 400 ? status.path("message").asText(status.path("reason").asText("")) : "";
    return new Request(
        received,
        user,
        entry.path("verb").asText("-"),
        resource,
        ref.path("name").asText("-"),
        code,
        why,
        open);
  }

  private static Instant instant(String timestamp) {
    if (timestamp == null) {
      return null;
    }
    try {
      return Instant.parse(timestamp);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String render(
      Path file, String namespace, Instant since, List<Request> requests, String problem) {
    StringBuilder out = new StringBuilder();
    out.append("# API requests on namespace ")
        .append(namespace)
        .append(" since ")
        .append(ReportText.dateTime(since))
        .append(", from ")
        .append(file)
        .append(" (")
        .append(ReportText.timesNote())
        .append(")\n");
    if (problem != null) {
      out.append("# ").append(problem).append('\n');
    }
    if (requests.isEmpty()) {
      out.append(problem == null ? "(no requests)\n" : "");
      return out.toString();
    }
    List<List<String>> rows = new ArrayList<>();
    for (Request r : requests) {
      String outcome = "-> " + (r.code() == 0 ? "?" : Integer.toString(r.code()));
      if (r.open()) {
        outcome += "  open";
      }
      if (r.denied()) {
        outcome += "  DENIED";
      }
      if (!r.why().isEmpty()) {
        outcome += "  " + ReportText.oneLine(r.why(), 300);
      }
      rows.add(
          List.of(ReportText.time(r.time()), r.user(), r.verb(), r.resource(), r.name(), outcome));
    }
    ReportText.table(rows).forEach(line -> out.append(line).append('\n'));
    return out.toString();
  }
}
