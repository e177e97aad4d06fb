package io.github.kubeharness.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReportSummaryTest {

  static final Instant T = Instant.parse("2026-01-01T10:00:00Z");

  @Test
  void manyObjectsEventsAndDenialsStayShortWithTheUnhealthyFirst() {
    List<NamespaceDump.Entry> objects = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      objects.add(new NamespaceDump.Entry("v1", "ConfigMap", "cm" + i, List.of()));
    }
    objects.add(new NamespaceDump.Entry("x.io/v1", "Widget", "w", List.of("Ready=False: Broken")));
    List<EventTable.Row> events = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      events.add(new EventTable.Row(T.plusSeconds(i), "Warning", "Failed" + i, "Widget/w", "m", 1));
    }
    List<AuditFilter.Request> requests = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      requests.add(new AuditFilter.Request(T, "ctl", "create", "secrets", "-", 403, "no", false));
    }
    requests.add(new AuditFilter.Request(T, "ctl", "get", "pods", "p", 403, "no", false));
    requests.add(
        new AuditFilter.Request(T, "ctl", "update", "widgets", "w", 409, "conflict", false));
    requests.add(new AuditFilter.Request(T, "ctl", "get", "widgets", "x", 404, "not found", false));

    String summary =
        ReportSummary.render(
            Path.of("target/reports/SomeIT/test"),
            Optional.of("Kubernetes 1.36.3, local backend, standard profile"),
            "ns",
            new NamespaceDump.Result(true, objects, List.of(), ""),
            new EventTable.Result(events, null, ""),
            new PodStatus.Result(
                5,
                List.of(
                    "web-1: web CrashLoopBackOff",
                    "web-2: web exited 1",
                    "web-3: not Ready (ContainersNotReady)",
                    "web-4: web restarted 2x"),
                ""),
            new AuditFilter.Result(true, requests, null, ""),
            new ControllerLog.Result(0, 0, ""),
            List.of());

    assertThat(summary.lines().count()).isLessThanOrEqualTo(20);
    assertThat(summary)
        .startsWith("kube-harness report: target/reports/SomeIT/test/\n")
        .contains("13 objects (Widget w [Ready=False: Broken], ConfigMap cm0, ")
        .contains("ConfigMap cm6, +5 more)")
        .contains("5 warning events in events.txt, newest first:\n    Widget/w Failed4: m\n")
        .contains(
            "4 unhealthy pods of 5 (status and logs in pods.txt):\n"
                + "    web-1: web CrashLoopBackOff\n    web-2: web exited 1\n"
                + "    web-3: not Ready (ContainersNotReady)\n    +1 more\n")
        .contains("7 denied API requests in api-requests.txt:\n")
        .contains("    ctl create secrets -> 403 (x6)\n    ctl get pods -> 403\n")
        .contains("1 other failed API request (409 x1) in api-requests.txt")
        .contains("controller log: no lines captured")
        .contains("  cluster: Kubernetes 1.36.3, local backend, standard profile\n");
  }

  @Test
  void pathsOutsideTheWorkingDirectoryStayAbsolute() {
    assertThat(ReportSummary.display(Path.of("/somewhere/else"))).isEqualTo("/somewhere/else/");
  }
}
