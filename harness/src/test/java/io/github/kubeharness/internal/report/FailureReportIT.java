package io.github.kubeharness.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.github.kubeharness.BackendSensitive;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.KubeUser;
import io.github.kubeharness.Profile;
import io.github.kubeharness.TestCrds;
import io.github.kubeharness.launch.ControlPlanes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failure report against a real API server with an audit log: a namespace holding a ConfigMap,
 * a Secret, a degraded custom resource, a warning event and a request RBAC denied.
 */
@BackendSensitive
class FailureReportIT {

  static final String NAMESPACE = "report-it";
  static final String OTHER_NAMESPACE = "report-other";
  static final ResourceDefinitionContext WIDGETS = TestCrds.widgetResource("report.kubeharness.io");
  static final List<String> LOG_LINES =
      List.of(
          "10:00:00.000 INFO  WidgetReconciler - reconciling report-it/w1",
          "10:00:00.010 WARN  WidgetReconciler - cannot create ConfigMap w1-config: forbidden",
          "10:00:00.020 ERROR WidgetReconciler - reconcile of report-it/w1 failed");

  static ControlPlane controlPlane;
  static KubernetesClient admin;
  static Instant testStarted;

  @TempDir static Path reports;
  static FailureReport report;

  @BeforeAll
  static void startAndFillNamespace() {
    // The backend the settings pick (local, or container in CI's second run): both write the
    // audit log and issue users.
    controlPlane =
        ControlPlanes.create(
            ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).withAuditLog(true).build());
    controlPlane.start();
    admin = controlPlane.newClient();
    TestCrds.installWidgets(admin, "report.kubeharness.io");
    testStarted = Instant.now();

    createNamespace(NAMESPACE);
    createConfigMap(NAMESPACE, "demo", Map.of("greeting", "hello"));
    createSecretAppliedByKubectl();
    GenericKubernetesResource w1 = createDegradedWidget();
    recordWarningEvent(w1);
    beDeniedAsMallory();
    createNamespace(OTHER_NAMESPACE);
    createConfigMap(OTHER_NAMESPACE, "not-mine", Map.of());
    createWidget(OTHER_NAMESPACE, "w-other");
    writeReport();
  }

  private static void createConfigMap(String namespace, String name, Map<String, String> data) {
    admin
        .configMaps()
        .inNamespace(namespace)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withData(data)
                .build())
        .create();
  }

  private static void createSecretAppliedByKubectl() {
    admin
        .secrets()
        .inNamespace(NAMESPACE)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("creds")
                // What `kubectl apply` leaves: the whole Secret, values included, as JSON.
                .addToAnnotations(
                    "kubectl.kubernetes.io/last-applied-configuration",
                    "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"stringData\":"
                        + "{\"password\":\"applied-s3cret\"}}")
                .endMetadata()
                .addToStringData("password", "s3cret-value")
                .build())
        .create();
  }

  /** Widget w1 with a Ready=False condition, as a failing controller would leave it. */
  private static GenericKubernetesResource createDegradedWidget() {
    GenericKubernetesResource w1 = createWidget(NAMESPACE, "w1");
    w1.setAdditionalProperty(
        "status",
        Map.of(
            "conditions",
            List.of(
                Map.of(
                    "type", "Ready",
                    "status", "False",
                    "reason", "Degraded",
                    "message", "ConfigMap w1-config is missing",
                    "lastTransitionTime", Instant.now().toString().replaceAll("\\.\\d+", "")))));
    admin.genericKubernetesResources(WIDGETS).inNamespace(NAMESPACE).resource(w1).updateStatus();
    return w1;
  }

  private static void recordWarningEvent(GenericKubernetesResource w1) {
    String now = Instant.now().toString().replaceAll("\\.\\d+", "");
    admin
        .v1()
        .events()
        .inNamespace(NAMESPACE)
        .resource(
            new EventBuilder()
                .withNewMetadata()
                .withName("w1.reconcile-error")
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion("report.kubeharness.io/v1")
                .withKind("Widget")
                .withNamespace(NAMESPACE)
                .withName("w1")
                .withUid(w1.getMetadata().getUid())
                .endInvolvedObject()
                .withType("Warning")
                .withReason("ReconcileError")
                .withMessage("configmaps is forbidden: User \"mallory\" cannot create configmaps")
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .withNewSource()
                .withComponent("widget-controller")
                .endSource()
                .build())
        .create();
  }

  /** A request RBAC denies, for the report's API requests. */
  private static void beDeniedAsMallory() {
    KubeUser mallory = controlPlane.addUser("mallory", List.of());
    try (KubernetesClient asMallory = mallory.newClient()) {
      assertThatThrownBy(
              () ->
                  asMallory
                      .configMaps()
                      .inNamespace(NAMESPACE)
                      .resource(
                          new ConfigMapBuilder()
                              .withNewMetadata()
                              .withName("w1-config")
                              .endMetadata()
                              .build())
                      .create())
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }
  }

  private static void writeReport() {
    long begin = System.nanoTime();
    report =
        FailureReport.write(
            reports.resolve("WidgetIT/createsConfigMap"),
            admin,
            NAMESPACE,
            testStarted,
            controlPlane.auditLogFile(),
            LOG_LINES);
    System.out.printf(
        "FailureReport.write took %d ms%n%s",
        Duration.ofNanos(System.nanoTime() - begin).toMillis(), report.summary());
  }

  @AfterAll
  static void stop() {
    if (admin != null) {
      admin.close();
    }
    if (controlPlane != null) {
      controlPlane.stop();
    }
  }

  @Test
  void objectsYamlHoldsTheNamespaceAndEveryObjectInItSortedByKindAndName() throws IOException {
    String yaml = read(FailureReport.OBJECTS);

    assertThat(yaml)
        .contains("# Namespace report-it", "# ConfigMap demo", "# Secret creds", "# Widget w1")
        .contains("kind: Widget", "apiVersion: report.kubeharness.io/v1", "greeting: hello")
        .doesNotContain("managedFields")
        .doesNotContain("not-mine", "w-other");
    List<JsonNode> documents = documents(yaml);
    assertThat(documents)
        .extracting(d -> d.path("kind").asText() + " " + d.path("metadata").path("name").asText())
        .containsExactly("Namespace report-it", "ConfigMap demo", "Secret creds", "Widget w1");
    assertThat(documents.get(3).path("status").path("conditions").get(0).path("reason").asText())
        .isEqualTo("Degraded");
  }

  @Test
  void secretValuesAreRedactedButTheirKeysKept() throws IOException {
    JsonNode secret = documents(read(FailureReport.OBJECTS)).get(2);

    assertThat(secret.path("data").path("password").asText()).isEqualTo("<redacted: 12 bytes>");
    assertThat(
            secret
                .path("metadata")
                .path("annotations")
                .path("kubectl.kubernetes.io/last-applied-configuration")
                .asText())
        .isEqualTo("<redacted>");
    assertThat(read(FailureReport.OBJECTS))
        .doesNotContain("s3cret-value")
        .doesNotContain("czNjcmV0LXZhbHVl")
        .doesNotContain("applied-s3cret");
  }

  @Test
  void eventsTxtListsTheWarningEvent() throws IOException {
    assertThat(read(FailureReport.EVENTS).lines())
        .anySatisfy(
            line ->
                assertThat(line)
                    .containsSubsequence(
                        "Warning", "ReconcileError", "Widget/w1", "configmaps is forbidden"));
  }

  @Test
  void apiRequestsMarkTheDeniedRequestAndLeaveOutOtherNamespaces() throws IOException {
    List<String> lines = read(FailureReport.API_REQUESTS).lines().toList();

    assertThat(lines)
        .anySatisfy(
            line ->
                assertThat(line)
                    .containsSubsequence("mallory", "create", "configmaps", "-> 403", "DENIED"));
    assertThat(lines)
        .anySatisfy(
            line -> assertThat(line).containsSubsequence("update", "widgets/status", "w1", "200"));
    assertThat(lines).noneSatisfy(line -> assertThat(line).contains("not-mine", "w-other"));
    assertThat(lines.stream().filter(line -> line.contains("DENIED"))).hasSize(1);
  }

  @Test
  void controllerLogHoldsTheGivenLines() throws IOException {
    assertThat(read(FailureReport.CONTROLLER_LOG).lines()).containsExactlyElementsOf(LOG_LINES);
  }

  @Test
  void summaryNamesObjectsConditionWarningDenialAndLog() throws IOException {
    String summary = report.summary();

    assertThat(summary.lines().count()).isLessThanOrEqualTo(15);
    assertThat(summary.lines().findFirst().orElseThrow())
        .startsWith("kube-harness report: ")
        .endsWith("WidgetIT/createsConfigMap/");
    assertThat(summary)
        .contains("namespace report-it: 3 objects")
        .contains("Widget w1 [Ready=False: Degraded]")
        .contains("ConfigMap demo", "Secret creds")
        .contains("1 warning event: Widget/w1 ReconcileError: configmaps is forbidden")
        .contains("1 denied API request: mallory create configmaps -> 403")
        .contains("controller log: 3 lines (2 WARN/ERROR) in controller.log")
        .doesNotContain("note:");
    assertThat(read(FailureReport.SUMMARY)).isEqualTo(summary);
    assertThat(report.directory()).isEqualTo(reports.resolve("WidgetIT/createsConfigMap"));
  }

  @Test
  void withoutAuditLogOrLogLinesTheFilesSaySo(@TempDir Path directory) throws IOException {
    FailureReport withoutAudit =
        FailureReport.write(directory, admin, NAMESPACE, testStarted, Optional.empty(), List.of());

    assertThat(directory.resolve(FailureReport.API_REQUESTS))
        .hasContent("(audit log not available with this backend)");
    assertThat(directory.resolve(FailureReport.CONTROLLER_LOG))
        .hasContent("(no log lines captured)");
    assertThat(withoutAudit.summary())
        .contains("controller log: no lines captured")
        .doesNotContain("API request")
        .doesNotContain("note:");
  }

  @Test
  void reportOfAnotherNamespaceHoldsOnlyThatNamespace(@TempDir Path directory) throws IOException {
    FailureReport other =
        FailureReport.write(
            directory, admin, OTHER_NAMESPACE, testStarted, controlPlane.auditLogFile(), List.of());

    assertThat(directory.resolve(FailureReport.OBJECTS))
        .content()
        .contains("# Namespace report-other", "# ConfigMap not-mine", "# Widget w-other")
        .doesNotContain("demo", "creds", "# Widget w1");
    assertThat(directory.resolve(FailureReport.API_REQUESTS))
        .content()
        .contains("not-mine")
        .doesNotContain("mallory", "demo");
    assertThat(directory.resolve(FailureReport.EVENTS))
        .hasContent(
            "# Events in namespace "
                + OTHER_NAMESPACE
                + ", oldest first ("
                + ReportText.timesNote()
                + ")\n(no events)");
    assertThat(other.summary())
        .contains("namespace report-other: 2 objects (ConfigMap not-mine, Widget w-other)");
  }

  @Test
  void writingAgainReplacesTheEarlierReport(@TempDir Path directory) throws IOException {
    FailureReport.write(directory, admin, NAMESPACE, testStarted, Optional.empty(), LOG_LINES);
    Files.writeString(directory.resolve("notes-of-the-user.txt"), "keep me");

    FailureReport.write(
        directory, admin, OTHER_NAMESPACE, testStarted, Optional.empty(), List.of());

    assertThat(directory.resolve(FailureReport.OBJECTS)).content().doesNotContain("demo");
    assertThat(directory.resolve(FailureReport.CONTROLLER_LOG))
        .hasContent("(no log lines captured)");
    assertThat(directory.resolve("notes-of-the-user.txt")).hasContent("keep me");
  }

  @Test
  void typesTheClientMayNotListAreNotedAndSkipped(@TempDir Path directory) {
    // A reader of namespaces, ConfigMaps and events only: every other list is forbidden.
    admin
        .rbac()
        .clusterRoles()
        .resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName("report-partial-reader")
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("namespaces", "configmaps", "events")
                .withVerbs("get", "list")
                .endRule()
                .build())
        .create();
    admin
        .rbac()
        .clusterRoleBindings()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName("report-partial-reader")
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "report-partial-reader")
                .addNewSubject()
                .withKind("User")
                .withName("partial-reader")
                .withApiGroup("rbac.authorization.k8s.io")
                .endSubject()
                .build())
        .create();
    KubeUser reader = controlPlane.addUser("partial-reader", List.of());
    try (KubernetesClient asReader = reader.newClient()) {
      // RBAC changes reach the authorizer through an informer.
      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .ignoreExceptions()
          .until(() -> asReader.configMaps().inNamespace(NAMESPACE).list() != null);

      FailureReport partial =
          FailureReport.write(
              directory, asReader, NAMESPACE, testStarted, Optional.empty(), List.of());

      assertThat(directory.resolve(FailureReport.OBJECTS))
          .content()
          .contains("# not listed: secrets (v1): ", "forbidden")
          .contains("# not listed: widgets (report.kubeharness.io/v1): ")
          .contains("# Namespace report-it", "# ConfigMap demo")
          .doesNotContain("# Secret creds");
      assertThat(directory.resolve(FailureReport.EVENTS)).content().contains("ReconcileError");
      assertThat(partial.summary())
          .contains("namespace report-it: 1 object (ConfigMap demo)")
          .contains("could not be listed (see the header of objects.yaml)");
    }
  }

  @Test
  void directoryThatCannotBeCreatedIsAnErrorNamingThePath(@TempDir Path directory)
      throws IOException {
    Path file = Files.writeString(directory.resolve("a-file"), "");
    Path impossible = file.resolve("report");

    assertThatThrownBy(
            () ->
                FailureReport.write(
                    impossible, admin, NAMESPACE, testStarted, Optional.empty(), List.of()))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining(impossible.toAbsolutePath().toString())
        .hasMessageContaining("writable directory");
  }

  private static String read(String file) throws IOException {
    return Files.readString(report.directory().resolve(file));
  }

  private static List<JsonNode> documents(String yaml) throws IOException {
    List<JsonNode> documents = new ArrayList<>();
    new YAMLMapper()
        .readerFor(JsonNode.class)
        .readValues(yaml)
        .forEachRemaining(d -> documents.add((JsonNode) d));
    return documents.stream().filter(d -> !d.isNull() && !d.isMissingNode()).toList();
  }

  private static void createNamespace(String name) {
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  private static GenericKubernetesResource createWidget(String namespace, String name) {
    return admin
        .genericKubernetesResources(WIDGETS)
        .inNamespace(namespace)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("report.kubeharness.io/v1")
                .withKind("Widget")
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("size", 1)))
                .build())
        .create();
  }
}
