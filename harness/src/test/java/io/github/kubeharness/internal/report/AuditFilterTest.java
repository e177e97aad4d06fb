package io.github.kubeharness.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditFilterTest {

  static final Instant SINCE = Instant.parse("2026-01-01T10:00:00Z");

  @Test
  void keepsRequestsOnTheNamespaceSinceTheTestStarted(@TempDir Path dir) throws IOException {
    Path log =
        Files.write(
            dir.resolve("audit.log"),
            List.of(
                entry(
                    "ResponseComplete",
                    "09:59:59",
                    "admin",
                    "create",
                    "team",
                    "configmaps",
                    "old",
                    201),
                entry("ResponseStarted", "10:00:01", "admin", "watch", "team", "pods", "", 200),
                entry(
                    "ResponseComplete",
                    "10:00:02",
                    "admin",
                    "create",
                    "team",
                    "configmaps",
                    "a",
                    201),
                entry(
                    "ResponseComplete",
                    "10:00:03",
                    "admin",
                    "create",
                    "team-b",
                    "configmaps",
                    "b",
                    201),
                """
                {"stage":"ResponseComplete","requestReceivedTimestamp":"2026-01-01T10:00:04.000000Z",\
                "requestURI":"/api/v1/namespaces/team","verb":"delete","user":{"username":"admin"},\
                "objectRef":{"resource":"namespaces","name":"team","apiVersion":"v1"},\
                "responseStatus":{"code":200}}""",
                entry("ResponseComplete", "10:00:05", "bob", "patch", "team", "widgets", "w", 403),
                "{\"stage\":\"ResponseComplete\",\"requestURI\":\"/api/v1/namespaces/team/con"));

    AuditFilter.Result result = AuditFilter.read(Optional.of(log), "team", SINCE);

    assertThat(result.problem()).isNull();
    assertThat(result.requests())
        .extracting(AuditFilter.Request::name)
        .containsExactly("-", "a", "team", "w");
    assertThat(result.denied())
        .extracting(AuditFilter.Request::attempt)
        .containsExactly("bob patch widgets");
    assertThat(result.text().lines().filter(l -> l.contains("DENIED")))
        .singleElement()
        .asString()
        .containsSubsequence("bob", "patch", "widgets", "w", "-> 403  DENIED", "forbidden");
  }

  @Test
  void listsAWatchFromItsStartAndReplacesItWhenItCompletes(@TempDir Path dir) throws IOException {
    String started =
        entry("ResponseStarted", "10:00:01", "ctl", "watch", "team", "widgets", "", 200);
    String completed =
        entry("ResponseComplete", "10:00:01", "ctl", "watch", "team", "widgets", "", 200);
    String stillOpen =
        entry("ResponseStarted", "10:00:02", "ctl", "watch", "team", "configmaps", "", 200);
    Path log =
        Files.write(
            dir.resolve("audit.log"),
            List.of(
                withAuditId(started, "w1"),
                withAuditId(stillOpen, "w2"),
                withAuditId(completed, "w1")));

    AuditFilter.Result result = AuditFilter.read(Optional.of(log), "team", SINCE);

    assertThat(result.requests())
        .extracting(r -> r.resource() + " open=" + r.open())
        .containsExactly("widgets open=false", "configmaps open=true");
    assertThat(result.text().lines().filter(l -> l.contains("configmaps")))
        .singleElement()
        .asString()
        .containsSubsequence("ctl", "watch", "configmaps", "-> 200  open");
  }

  private static String withAuditId(String entry, String id) {
    return entry.replaceFirst("^\\{", "{\"auditID\":\"" + id + "\",");
  }

  @Test
  void namesSubresourcesAndImpersonation(@TempDir Path dir) throws IOException {
    Path log =
        Files.writeString(
            dir.resolve("audit.log"),
            """
            {"stage":"ResponseComplete","requestReceivedTimestamp":"2026-01-01T10:00:01.5Z",\
            "requestURI":"/apis/x.io/v1/namespaces/team/widgets/w/status","verb":"update",\
            "user":{"username":"admin"},"impersonatedUser":{"username":"system:serviceaccount:team:ctl"},\
            "objectRef":{"resource":"widgets","subresource":"status","namespace":"team","name":"w"},\
            "responseStatus":{"code":409,"message":"the object has been modified"}}
            """);

    AuditFilter.Result result = AuditFilter.read(Optional.of(log), "team", SINCE);

    assertThat(result.text().lines().skip(1))
        .singleElement()
        .asString()
        .containsSubsequence(
            "admin (as system:serviceaccount:team:ctl)",
            "update",
            "widgets/status",
            "w",
            "-> 409",
            "the object has been modified")
        .doesNotContain("DENIED");
  }

  @Test
  void aMissingLogIsAProblemNotAnError(@TempDir Path dir) {
    AuditFilter.Result result =
        AuditFilter.read(Optional.of(dir.resolve("absent.log")), "team", SINCE);

    assertThat(result.available()).isTrue();
    assertThat(result.requests()).isEmpty();
    assertThat(result.problem()).contains("absent.log", "does not exist");
    assertThat(result.text()).contains("# audit log ", "does not exist");
  }

  @Test
  void withoutALogTheFileSaysSo() {
    AuditFilter.Result result = AuditFilter.read(Optional.empty(), "team", SINCE);

    assertThat(result.available()).isFalse();
    assertThat(result.text()).isEqualTo("(audit log not available with this backend)\n");
  }

  private static String entry(
      String stage,
      String time,
      String user,
      String verb,
      String namespace,
      String resource,
      String name,
      int code) {
    String uri =
        "/api/v1/namespaces/" + namespace + "/" + resource + (name.isEmpty() ? "" : "/" + name);
    String status =
        code == 403
            ? "{\"code\":403,\"status\":\"Failure\",\"reason\":\"Forbidden\",\"message\":\""
                + resource
                + " is forbidden\"}"
            : "{\"code\":" + code + "}";
    return "{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":\"Metadata\","
        + "\"stage\":\""
        + stage
        + "\",\"requestURI\":\""
        + uri
        + "\",\"verb\":\""
        + verb
        + "\","
        + "\"user\":{\"username\":\""
        + user
        + "\"},"
        + "\"objectRef\":{\"resource\":\""
        + resource
        + "\",\"namespace\":\""
        + namespace
        + "\""
        + (name.isEmpty() ? "" : ",\"name\":\"" + name + "\"")
        + "},"
        + "\"responseStatus\":"
        + status
        + ","
        + "\"requestReceivedTimestamp\":\"2026-01-01T"
        + time
        + ".000000Z\"}";
  }
}
