package io.github.kubeharness.internal.junit;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.internal.faults.ProxyFaults;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.report.FailureReport;
import io.github.kubeharness.webhooks.WebhookCall;
import io.github.kubeharness.webhooks.Webhooks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.opentest4j.AssertionFailedError;

/**
 * Where failure reports of {@code @ControllerTest} classes go, and how a failure carries its
 * report: {@code target/kube-harness/reports/<class>/<method>/}, the summary appended to the
 * failure's message. Public for the framework integrations (io.github.kubeharness.integration),
 * whose reports go to the same place and name the cluster the same way.
 */
public final class TestReports {

  private static final Path REPORTS = Path.of("target", "kube-harness", "reports");

  /** The report directory of a test; {@code method} is {@code beforeAll} for a class's start. */
  public static Path directory(Class<?> testClass, String method) {
    return REPORTS.resolve(testClass.getName()).resolve(method);
  }

  /**
   * Deletes the reports an earlier run left for {@code testClass}, so that every report on disk
   * belongs to this run: a test that passes now, or fails for another reason, must not sit beside
   * an old report of the same name.
   */
  static void clearEarlierRuns(Class<?> testClass) {
    Path classReports = REPORTS.resolve(testClass.getName());
    if (Files.exists(classReports)) {
      RunDirectory.deleteRecursively(classReports);
    }
  }

  /**
   * Writes the report of {@code scope} to {@code directory} (with {@code clusters}: each cluster's
   * to {@code directory/<cluster>/}) and returns {@code failure} with the report's summary (and the
   * controllers' fatal errors, if any) in its message. A report that cannot be written is added to
   * the failure as suppressed.
   */
  static Throwable report(TestScope scope, Path directory, Throwable failure) {
    scope.markFailed();
    String summary;
    try {
      if (scope.first().name() == null) {
        summary = clusterReport(scope.first(), directory);
      } else {
        // One report per cluster, each in a subdirectory named after it: the same namespace name
        // holds different objects in each.
        StringBuilder all = new StringBuilder();
        for (ClusterScope on : scope.all()) {
          all.append(all.length() == 0 ? "" : "\n").append(clusterSection(on, directory));
        }
        summary = all.toString();
      }
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
      return failure;
    }
    List<String> stopped = scope.controllerFailures();
    if (!stopped.isEmpty() && !String.valueOf(failure.getMessage()).contains(stopped.get(0))) {
      summary = ControllerFailures.describe(stopped) + "\n" + summary;
    }
    // Last, with the report on disk: the cluster is looked at as the report describes it.
    scope.config().pauseOnFailure().at(directory, scope.clusters(false), failure, System.err);
    return withSummary(failure, summary);
  }

  private static String clusterSection(ClusterScope scope, Path directory) {
    return "cluster "
        + scope.name()
        + ":\n"
        + clusterReport(scope, directory.resolve(scope.name()));
  }

  /** The report of {@code scope}'s own cluster, written to {@code directory}; its summary. */
  private static String clusterReport(ClusterScope scope, Path directory) {
    SharedCluster cluster = scope.cluster();
    String namespace = scope.namespace().name();
    String summary =
        FailureReport.write(
                directory,
                cluster.admin(),
                namespace,
                scope.started(),
                cluster.auditLog(),
                LogCapture.linesFor(scope.started(), namespace, scope.controllers().classes()),
                cluster(cluster.controlPlane()))
            .summary();
    List<String> faultLog = scope.faults().log();
    summary += faultsFile(directory, faultLog);
    summary += scheduleFile(directory, scope.faults().seedInUse(), faultLog);
    summary += webhooksFile(directory, scope.webhooks().map(Webhooks::calls).orElse(List.of()));
    return summary;
  }

  /** {@code Kubernetes 1.36.3, local backend, simulated profile}: where the test ran. */
  public static Optional<String> cluster(ControlPlane controlPlane) {
    try {
      return Optional.of(
          "Kubernetes "
              + controlPlane.kubernetesVersion()
              + ", "
              + controlPlane.backend().settingValue()
              + " backend, "
              + controlPlane.profile().settingValue()
              + " profile");
    } catch (RuntimeException e) {
      return Optional.of("version unknown (" + e.getMessage() + ")");
    }
  }

  /**
   * Writes {@code faults.txt}: what the fault proxy injected and passed on during the test (none
   * where there is no proxy, and an earlier run's file is removed); returns a summary line.
   */
  private static String faultsFile(Path directory, List<String> lines) {
    Path file = directory.resolve("faults.txt");
    try {
      Files.deleteIfExists(file);
      if (lines.stream().noneMatch(TestReports::isFault)) {
        return "";
      }
      Files.write(file, lines);
      return "\n  faults.txt: "
          + lines.stream().filter(TestReports::isFault).count()
          + " fault events, "
          + lines.stream().filter(l -> l.contains("  passed ")).count()
          + " requests passed on";
    } catch (IOException e) {
      return "\n  faults.txt: not written (" + e.getMessage() + ")";
    }
  }

  /**
   * Writes {@code schedule.txt} for a test that used faults: its seed, how to replay it, and the
   * watch events it held, delivered, resent or dropped, in order; returns the summary line that
   * names the seed.
   */
  private static String scheduleFile(Path directory, Optional<Long> seed, List<String> lines) {
    Path file = directory.resolve("schedule.txt");
    try {
      Files.deleteIfExists(file);
      if (seed.isEmpty()) {
        return "";
      }
      String replay = "seed " + seed.get() + " (replay: -Dkubeharness.seed=" + seed.get() + ")";
      List<String> schedule = lines.stream().filter(ProxyFaults::aboutWatchDelivery).toList();
      List<String> content = new ArrayList<>();
      content.add(replay);
      content.addAll(schedule);
      Files.write(file, content);
      return "\n  " + replay + "\n  schedule.txt: " + schedule.size() + " watch delivery events";
    } catch (IOException e) {
      return "\n  schedule.txt: not written (" + e.getMessage() + ")";
    }
  }

  /**
   * Writes {@code webhooks.txt}: every call the API server made to the class's webhooks during the
   * test, a handler's stack trace under its call; returns a summary line.
   */
  private static String webhooksFile(Path directory, List<WebhookCall> calls) {
    Path file = directory.resolve("webhooks.txt");
    try {
      Files.deleteIfExists(file);
      if (calls.isEmpty()) {
        return "";
      }
      Files.write(file, calls.stream().map(WebhookCall::toString).toList());
      List<WebhookCall> failed = calls.stream().filter(c -> c.error().isPresent()).toList();
      return "\n  webhooks.txt: "
          + calls.size()
          + " webhook calls"
          + (failed.isEmpty()
              ? ""
              : ", "
                  + failed.size()
                  + " failed (first: "
                  + failed.get(0).path()
                  + " on "
                  + failed.get(0).request()
                  + ")");
    } catch (IOException e) {
      return "\n  webhooks.txt: not written (" + e.getMessage() + ")";
    }
  }

  // Requests passed on and watches opened are the controllers' traffic; the rest are fault events
  // (injected, answered, delayed, dropped, apiserver down/up, refused, removed).
  private static boolean isFault(String line) {
    return !line.contains("  passed ") && !line.contains("  watching ");
  }

  private static Throwable withSummary(Throwable failure, String summary) {
    String message = (failure.getMessage() == null ? "" : failure.getMessage()) + "\n\n" + summary;
    Throwable augmented;
    if (failure instanceof AssertionFailedError afe) {
      augmented =
          new AssertionFailedError(
              message,
              afe.isExpectedDefined() ? afe.getExpected().getValue() : null,
              afe.isActualDefined() ? afe.getActual().getValue() : null,
              afe.getCause());
    } else if (failure instanceof AssertionError) {
      augmented = new AssertionError(message, failure.getCause());
    } else {
      failure.addSuppressed(new KubeHarnessReport(summary));
      return failure;
    }
    augmented.setStackTrace(failure.getStackTrace());
    for (Throwable s : failure.getSuppressed()) {
      augmented.addSuppressed(s);
    }
    return augmented;
  }

  /** Carries the report summary on a failure that is not an assertion. */
  static final class KubeHarnessReport extends RuntimeException {
    KubeHarnessReport(String summary) {
      super(summary, null, false, false);
    }
  }

  private TestReports() {}
}
