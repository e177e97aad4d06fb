package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.faults.InjectedFault;
import io.github.kubeharness.junit.ScenarioRunner.Outcome;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import io.github.kubeharness.junit.scenarios.FaultScenarios;
import io.github.kubeharness.launch.ControlPlanes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * What the README promises of fault rules besides their answers: narrowing by namespace and name,
 * {@code remove()} and {@code clear()}, rules ending with their test, {@code dropWatches()} of one
 * namespace, the {@code Status} bodies and {@code Retry-After} of injected answers, {@code
 * faults.txt} in a failing test's report, and the proxy's port closing with its control plane. Each
 * request goes through the real proxy to a real API server.
 */
@ControllerTest(
    backend = "local",
    crds = "src/test/resources/crds",
    reconcilers = WidgetReconciler.class)
class FaultRulesIT {

  private static final Path REPORTS = Path.of("target/kube-harness/reports");

  KubernetesClient client;
  ControlPlane controlPlane;
  Faults faults;
  @TestNamespace String namespace;

  @Test
  void aRuleNarrowedByNameStrikesOnlyThatObject() {
    InjectedFault onA =
        faults.respond(
            FaultRule.requests().verbs("get").resource("configmaps").name("a").conflict());

    try (KubernetesClient proxied = proxiedAdmin()) {
      assertThat(status(() -> proxied.configMaps().inNamespace(namespace).withName("a").get()))
          .isEqualTo(409);
      // Passed on: the API server answers that there is no such ConfigMap.
      assertThat(status(() -> proxied.configMaps().inNamespace(namespace).withName("b").get()))
          .isEqualTo(404);
    }
    assertThat(onA.hits()).isEqualTo(1);
  }

  @Test
  void aRuleNamingAnotherNamespaceStrikesThereAndNotInTheTestsOwn() {
    InjectedFault elsewhere =
        faults.respond(
            FaultRule.requests()
                .verbs("get")
                .resource("configmaps")
                .namespace("default")
                .conflict());

    try (KubernetesClient proxied = proxiedAdmin()) {
      assertThat(status(() -> proxied.configMaps().inNamespace("default").withName("p").get()))
          .isEqualTo(409);
      assertThat(status(() -> proxied.configMaps().inNamespace(namespace).withName("p").get()))
          .isEqualTo(404);
    }
    assertThat(elsewhere.hits()).isEqualTo(1);
  }

  @Test
  void removeEndsOneRuleAndClearEndsEveryRuleOfTheTest() {
    InjectedFault onA =
        faults.respond(
            FaultRule.requests().verbs("get").resource("configmaps").name("a").conflict());
    InjectedFault onB =
        faults.respond(
            FaultRule.requests().verbs("get").resource("configmaps").name("b").conflict());

    try (KubernetesClient proxied = proxiedAdmin()) {
      Supplier<Integer> getA =
          () -> status(() -> proxied.configMaps().inNamespace(namespace).withName("a").get());
      Supplier<Integer> getB =
          () -> status(() -> proxied.configMaps().inNamespace(namespace).withName("b").get());
      assertThat(List.of(getA.get(), getB.get())).containsExactly(409, 409);

      onA.remove();
      assertThat(List.of(getA.get(), getB.get())).containsExactly(404, 409);

      faults.clear();
      assertThat(List.of(getA.get(), getB.get())).containsExactly(404, 404);
    }
    assertThat(onA.hits()).isEqualTo(1);
    assertThat(onB.hits()).isEqualTo(2);
    assertThat(faults.log())
        .anyMatch(l -> l.matches(".*removed   rule \\d+ \\(409 Conflict .*/a\\) after 1 hits"))
        .anyMatch(l -> l.matches(".*removed   rule \\d+ \\(409 Conflict .*/b\\) after 2 hits"));
  }

  @Test
  void aRuleEndsWithTheTestThatInjectedIt() {
    List<Outcome> outcomes = ScenarioRunner.run(FaultScenarios.RuleOfAnEarlierTestScenario.class);

    // The first test saw its rule strike a namespace not its own; the next one finds it gone.
    assertThat(outcomes)
        .extracting(Outcome::displayName, Outcome::status)
        .containsExactly(
            tuple("injectsARuleForAnotherNamespace()", Status.SUCCESSFUL),
            tuple("findsThatRuleGone()", Status.SUCCESSFUL));
  }

  @Test
  void injectedAnswersAreKubernetesStatusesAndAThrottleSaysWhenToRetry() throws Exception {
    for (FaultRule rule :
        List.of(
            FaultRule.requests().name("conflicting").conflict(),
            FaultRule.requests().name("throttled").throttle(Duration.ofSeconds(2)),
            FaultRule.requests().name("failing").serverError(),
            FaultRule.requests().name("unavailable").unavailable())) {
      faults.respond(rule.verbs("get").resource("configmaps"));
    }

    try (KubernetesClient proxied = proxiedAdmin()) {
      HttpResponse<String> throttled = rawGet(proxied, "throttled");
      assertThat(throttled.code()).isEqualTo(429);
      assertThat(throttled.header("Retry-After")).isEqualTo("2");
      io.fabric8.kubernetes.api.model.Status body = statusBody(throttled);
      assertThat(body.getReason()).isEqualTo("TooManyRequests");
      assertThat(body.getDetails().getRetryAfterSeconds()).isEqualTo(2);

      for (var expected :
          List.of(
              List.of("conflicting", 409, "Conflict"),
              List.of("failing", 500, "InternalError"),
              List.of("unavailable", 503, "ServiceUnavailable"))) {
        HttpResponse<String> answer = rawGet(proxied, (String) expected.get(0));
        assertThat(answer.code()).as("%s", expected).isEqualTo(expected.get(1));
        assertThat(statusBody(answer).getReason()).as("%s", expected).isEqualTo(expected.get(2));
      }
    }
  }

  @Test
  void aScopedDropEndsTheWatchesOfItsNamespaceOnly() throws Exception {
    Set<String> seenHere = ConcurrentHashMap.newKeySet();
    Set<String> seenThere = ConcurrentHashMap.newKeySet();
    String there = "default";
    String probe = "probe-" + namespace;
    try (KubernetesClient proxied = proxiedAdmin();
        Watch here = proxied.configMaps().inNamespace(namespace).watch(recording(seenHere));
        Watch elsewhere = proxied.configMaps().inNamespace(there).watch(recording(seenThere))) {
      // Both watches carry events through the proxy before anything is dropped.
      client.configMaps().resource(configMap("before")).create();
      client.configMaps().inNamespace(there).resource(configMap(probe + "-before")).create();
      Awaitility.await()
          .until(() -> seenHere.contains("before") && seenThere.contains(probe + "-before"));

      assertThat(faults.dropWatches()).isPositive();

      client.configMaps().resource(configMap("after")).create();
      client.configMaps().inNamespace(there).resource(configMap(probe + "-after")).create();
      Awaitility.await()
          .until(() -> seenHere.contains("after") && seenThere.contains(probe + "-after"));
      // The test namespace's watch was cut and watched again; the other one carried its event on
      // the connection it had (a cut one would have been opened again, and logged, before it).
      assertThat(watchesOpened(namespace)).isGreaterThanOrEqualTo(2);
      assertThat(watchesOpened(there)).isEqualTo(1);
    } finally {
      client.configMaps().inNamespace(there).withName(probe + "-before").delete();
      client.configMaps().inNamespace(there).withName(probe + "-after").delete();
    }
  }

  @Test
  void aFailingTestsReportHasTheFaultsOnlyWhenOneWasInjected() throws Exception {
    List<Outcome> outcomes = ScenarioRunner.run(FaultScenarios.FailingUnderFaultsScenario.class);

    assertThat(outcomes).extracting(Outcome::status).containsOnly(Status.FAILED).hasSize(2);
    Outcome withFault =
        outcomes.stream()
            .filter(o -> o.displayName().equals("failsAfterAConflict()"))
            .findFirst()
            .orElseThrow();
    assertThat(ScenarioRunner.fullMessage(withFault.failure()))
        .contains("fails on purpose")
        .containsPattern("faults.txt: \\d+ fault events, \\d+ requests passed on");
    Path reports = REPORTS.resolve(FaultScenarios.FailingUnderFaultsScenario.class.getName());
    List<String> lines = Files.readAllLines(reports.resolve("failsAfterAConflict/faults.txt"));
    String time = "\\d{2}:\\d{2}:\\d{2}\\.\\d{3}  ";
    assertThat(lines)
        .anyMatch(
            l ->
                l.matches(time + "injected  rule \\d+ \\(409 Conflict for patch widgets/status .*"))
        .anyMatch(l -> l.matches(time + "answered  patch widgets/status .*/w with 409  \\(rule .*"))
        .anyMatch(
            l -> l.matches(time + "passed    patch widgets/status .*/w -> 200 \\(\\d+ ms\\)"));
    // A failure without a fault has its report, but no faults.txt.
    assertThat(reports.resolve("failsWithoutAFault/summary.txt")).exists();
    assertThat(reports.resolve("failsWithoutAFault/faults.txt")).doesNotExist();
  }

  @Test
  void theProxysPortClosesWithItsControlPlane() {
    try (ControlPlane own =
        ControlPlanes.local(ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).build())) {
      own.start();
      int port = URI.create(own.faults().proxyUrl()).getPort();
      assertThat(refusesConnections(port)).as("the proxy's port %s before stop()", port).isFalse();

      own.stop();

      assertThat(refusesConnections(port)).as("the proxy's port %s after stop()", port).isTrue();
    }
  }

  private long watchesOpened(String watchedNamespace) {
    return faults.log().stream()
        .filter(l -> l.endsWith("watching  watch configmaps " + watchedNamespace))
        .count();
  }

  /** The proxy's own answer, read without fabric8's retries or exceptions in between. */
  private HttpResponse<String> rawGet(KubernetesClient proxied, String name) throws Exception {
    HttpClient http = proxied.getHttpClient();
    URI uri =
        URI.create(
            proxied.getMasterUrl().toString().replaceFirst("/$", "")
                + "/api/v1/namespaces/"
                + namespace
                + "/configmaps/"
                + name);
    return http.sendAsync(http.newHttpRequestBuilder().uri(uri).build(), String.class)
        .get(30, TimeUnit.SECONDS);
  }

  private static io.fabric8.kubernetes.api.model.Status statusBody(HttpResponse<String> answer) {
    io.fabric8.kubernetes.api.model.Status status =
        Serialization.unmarshal(answer.body(), io.fabric8.kubernetes.api.model.Status.class);
    assertThat(status.getKind()).isEqualTo("Status");
    assertThat(status.getStatus()).isEqualTo("Failure");
    assertThat(status.getCode()).isEqualTo(answer.code());
    return status;
  }

  /** The admin's identity through the proxy; fabric8 retries nothing, so each answer shows. */
  private KubernetesClient proxiedAdmin() {
    return FaultScenarios.proxiedAdmin(controlPlane, faults, "fault-rules-it-admin");
  }

  /** The status of a get: 200, 404 (fabric8's null) or the code of the failure. */
  private static int status(Supplier<ConfigMap> get) {
    try {
      return get.get() == null ? 404 : 200;
    } catch (KubernetesClientException e) {
      return e.getCode();
    }
  }

  private static Watcher<ConfigMap> recording(Set<String> seen) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, ConfigMap configMap) {
        seen.add(configMap.getMetadata().getName());
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToData("k", "v")
        .build();
  }

  private static boolean refusesConnections(int port) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return false;
    } catch (IOException refused) {
      return true;
    }
  }
}
