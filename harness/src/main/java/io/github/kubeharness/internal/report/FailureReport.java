package io.github.kubeharness.internal.report;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The failure report of one failed controller test: a directory describing what the test's
 * namespace held and what happened in it, written while the namespace and controllers still exist.
 *
 * <ul>
 *   <li>{@code objects.yaml} — every object of the namespace, custom resources included;
 *   <li>{@code events.txt} — the namespace's events, oldest first;
 *   <li>{@code pods.txt} — the pods' phase, conditions and container states, with the last log
 *       lines of those not Ready, failed or restarted (backends with a kubelet);
 *   <li>{@code controller.log} — the controller log lines the caller captured;
 *   <li>{@code api-requests.txt} — the requests on the namespace since the test started, from the
 *       apiserver's audit log, with denied ones marked;
 *   <li>{@code summary.txt} — {@link #summary()}.
 * </ul>
 *
 * <p>Writing never fails for a part it cannot gather (a type that cannot be listed, an unreadable
 * audit log, a file that cannot be written): the part says what is missing and why, and the summary
 * notes it. Only a directory that cannot be created is an error.
 */
public final class FailureReport {

  static final String OBJECTS = "objects.yaml";
  static final String EVENTS = "events.txt";
  static final String PODS = "pods.txt";
  static final String CONTROLLER_LOG = "controller.log";
  static final String API_REQUESTS = "api-requests.txt";
  static final String SUMMARY = "summary.txt";

  private final Path directory;
  private final String summary;

  private FailureReport(Path directory, String summary) {
    this.directory = directory;
    this.summary = summary;
  }

  /**
   * Writes the report of a failed test into {@code directory}, replacing the files of an earlier
   * report there, and returns it.
   *
   * @param directory where to write, created if missing, e.g. {@code
   *     target/kube-harness/reports/<TestClass>/<method>/}
   * @param admin a cluster-admin client, used to list objects and events
   * @param namespace the test's namespace
   * @param testStarted when the test started: older audit entries are left out
   * @param auditLog the apiserver's JSON-lines audit log, when the backend has one
   * @param controllerLogLines the test's controller log lines, already filtered (may be empty)
   * @throws KubeHarnessException when the directory cannot be created
   */
  public static FailureReport write(
      Path directory,
      KubernetesClient admin,
      String namespace,
      Instant testStarted,
      Optional<Path> auditLog,
      List<String> controllerLogLines) {
    return write(
        directory, admin, namespace, testStarted, auditLog, controllerLogLines, Optional.empty());
  }

  /**
   * {@link #write(Path, KubernetesClient, String, Instant, Optional, List)}, the summary naming the
   * {@code cluster} the test ran on ({@code Kubernetes 1.36.3, local backend}).
   */
  public static FailureReport write(
      Path directory,
      KubernetesClient admin,
      String namespace,
      Instant testStarted,
      Optional<Path> auditLog,
      List<String> controllerLogLines,
      Optional<String> cluster) {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(admin, "admin");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(testStarted, "testStarted");
    Objects.requireNonNull(auditLog, "auditLog");
    Objects.requireNonNull(controllerLogLines, "controllerLogLines");
    prepare(directory);

    List<String> notes = new ArrayList<>();
    // The audit log first: the lists below are requests on the namespace too, and would otherwise
    // fill api-requests.txt with the report's own reads.
    AuditFilter.Result requests =
        guarded(
            "api-requests.txt",
            notes,
            () -> AuditFilter.read(auditLog, namespace, testStarted),
            problem -> new AuditFilter.Result(false, List.of(), null, "# " + problem + "\n"));
    NamespaceDump.Result objects =
        guarded(
            "objects.yaml",
            notes,
            () -> NamespaceDump.dump(admin, namespace),
            problem -> new NamespaceDump.Result(true, List.of(), List.of(), "# " + problem + "\n"));
    EventTable.Result events =
        guarded(
            "events.txt",
            notes,
            () -> EventTable.read(admin, namespace),
            problem -> new EventTable.Result(List.of(), null, "# " + problem + "\n"));
    PodStatus.Result pods =
        guarded(
            "pods.txt",
            notes,
            () -> PodStatus.read(admin, namespace),
            problem -> new PodStatus.Result(0, List.of(), "# " + problem + "\n"));
    ControllerLog.Result log = ControllerLog.of(controllerLogLines);

    writeFile(directory.resolve(OBJECTS), objects.yaml(), notes);
    writeFile(directory.resolve(EVENTS), events.text(), notes);
    writeFile(directory.resolve(PODS), pods.text(), notes);
    writeFile(directory.resolve(CONTROLLER_LOG), log.text(), notes);
    writeFile(directory.resolve(API_REQUESTS), requests.text(), notes);
    String summary =
        ReportSummary.render(
            directory, cluster, namespace, objects, events, pods, requests, log, notes);
    writeFile(directory.resolve(SUMMARY), summary, new ArrayList<>());
    return new FailureReport(directory, summary);
  }

  /** A short multi-line text for the test's failure message: where the report is, what it found. */
  public String summary() {
    return summary;
  }

  /** The directory holding the report's files. */
  public Path directory() {
    return directory;
  }

  @Override
  public String toString() {
    return summary;
  }

  private static void prepare(Path directory) {
    try {
      Files.createDirectories(directory);
      // Only the report's own files: the directory is the caller's, and a stale file from an
      // earlier run must not pass for this one.
      for (String name : List.of(OBJECTS, EVENTS, PODS, CONTROLLER_LOG, API_REQUESTS, SUMMARY)) {
        Files.deleteIfExists(directory.resolve(name));
      }
    } catch (IOException | RuntimeException e) {
      throw new KubeHarnessException(
          "Cannot create the failure report directory "
              + directory.toAbsolutePath()
              + ": "
              + e
              + ". Make sure the path is a writable directory (not a file) on a disk with free"
              + " space; reports go below the build directory, so `mvn clean` also clears a"
              + " broken one.",
          e);
    }
  }

  // A bug or an unexpected failure in one part must not cost the others. The note carries the
  // problem into the summary; the fallback only into the part's file.
  private static <T> T guarded(
      String part, List<String> notes, Supplier<T> work, Function<String, T> fallback) {
    try {
      return work.get();
    } catch (RuntimeException e) {
      String problem = part + " incomplete: " + e;
      notes.add(problem);
      return fallback.apply(problem);
    }
  }

  private static void writeFile(Path file, String content, List<String> notes) {
    try {
      Files.writeString(file, content);
    } catch (IOException | RuntimeException e) {
      notes.add("cannot write " + file.getFileName() + ": " + e);
    }
  }
}
