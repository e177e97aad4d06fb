package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.AnonymousHttp;
import io.github.kubeharness.ComponentProcesses;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.faults.InjectedFault;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Faults through the proxy in front of kube-apiserver: each one hits the controller's real HTTP
 * traffic (never the test's), the controller converges once it ends, and the proxy keeps every
 * identity what it is without it.
 */
@ControllerTest(
    backend = "local",
    crds = "src/test/resources/crds",
    reconcilers = WidgetReconciler.class)
class FaultsIT {

  KubernetesClient client;
  ControlPlane controlPlane;
  Faults faults;
  WidgetReconciler reconciler;
  @TestNamespace String namespace;

  @Test
  void conflictsOnTheStatusPatchAreRetriedUntilTheWidgetIsReady() {
    InjectedFault conflict =
        faults.respond(
            FaultRule.requests().verbs("patch").resource("widgets/status").times(2).conflict());

    client.resource(Widget.named("w", "hello")).create();

    eventually(client.resources(Widget.class).withName("w")).hasCondition("Ready", "True");
    assertThat(conflict.hits()).isEqualTo(2);
    Awaitility.await()
        .untilAsserted(
            () ->
                assertThat(faults.log())
                    .anyMatch(
                        l ->
                            l.contains(
                                "answered  patch widgets/status " + namespace + "/w with 409"))
                    .anyMatch(
                        l ->
                            l.contains(
                                "passed    patch widgets/status " + namespace + "/w -> 200")));
  }

  @Test
  void serverErrorsAndUnavailabilityEndAndTheConfigMapIsWritten() {
    InjectedFault failing =
        faults.respond(
            FaultRule.requests().verbs("patch").resource("configmaps").times(1).serverError());
    InjectedFault unavailable =
        faults.respond(
            FaultRule.requests().verbs("patch").resource("configmaps").times(1).unavailable());

    client.resource(Widget.named("w", "hello")).create();

    ConfigMap written = eventually(client.configMaps().withName("w")).exists();
    assertThat(written.getData()).containsEntry("message", "hello");
    assertThat(failing.hits()).isEqualTo(1);
    assertThat(unavailable.hits()).isEqualTo(1);
  }

  @Test
  void aThrottledClientBacksOffInsteadOfHammering() {
    InjectedFault throttle =
        faults.respond(
            FaultRule.requests()
                .verbs("patch")
                .resource("configmaps")
                .times(2)
                .throttle(Duration.ofSeconds(1)));

    client.resource(Widget.named("w", "hello")).create();

    eventually(client.configMaps().withName("w")).exists();
    assertThat(throttle.hits()).isEqualTo(2);
    // Two 429s, then the patch that passed, each after a back-off: fabric8 7.5.2 retries a 429
    // after its own exponential back-off (100 ms, 200 ms, ...); the Retry-After it reads does not
    // lengthen the wait (it logs "retrying after 1000 millis" and retries sooner).
    // (A request is logged once its answer has ended: the last one may lag the ConfigMap.)
    List<String> patches =
        Awaitility.await()
            .until(
                () ->
                    faults.log().stream()
                        .filter(
                            l ->
                                l.matches(
                                    ".*(answered|passed) +patch configmaps " + namespace + "/w.*"))
                        .toList(),
                lines -> lines.size() >= 3);
    assertThat(patches).hasSize(3);
    assertThat(millisBetween(patches.get(0), patches.get(1))).isGreaterThanOrEqualTo(90);
    assertThat(millisBetween(patches.get(1), patches.get(2))).isGreaterThanOrEqualTo(190);
  }

  @Test
  void droppedWatchesAreWatchedAgainAndNothingIsMissed() {
    client.resource(Widget.named("before", "1")).create();
    eventually(client.configMaps().withName("before")).exists();

    int dropped = faults.dropWatches();

    assertThat(dropped).isPositive();
    client.resource(Widget.named("after", "2")).create();
    eventually(client.configMaps().withName("after")).exists();
    // The informer lists again, then watches again: the new watch may follow the reconcile.
    Awaitility.await()
        .untilAsserted(
            () ->
                assertThat(faults.log())
                    .filteredOn(l -> l.contains("watching  watch widgets " + namespace))
                    .hasSizeGreaterThanOrEqualTo(2));
  }

  @Test
  void theApiServerGoesDownAndComesBackWithItsDataOnTheSamePort() throws Exception {
    String url = controlPlane.apiServerUrl();
    int port = URI.create(url).getPort();
    long before = ComponentProcesses.of(controlPlane).get("kube-apiserver");
    client.resource(Widget.named("before", "1")).create();
    eventually(client.configMaps().withName("before")).exists();

    CompletableFuture<Void> down =
        CompletableFuture.runAsync(() -> faults.apiServerDown(Duration.ofSeconds(2)));
    // Seen, not timed: while it is down its port refuses connections (a restart that did nothing
    // would accept them until the call returned).
    AtomicBoolean refused = new AtomicBoolean();
    Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              refused.set(refusesConnections(port));
              return refused.get() || down.isDone();
            });
    down.get(60, TimeUnit.SECONDS);
    assertThat(refused.get())
        .as("kube-apiserver's port %s refused connections while it was down", port)
        .isTrue();

    // Really another process: the old one is gone, a new one serves the same URL.
    long after = ComponentProcesses.of(controlPlane).get("kube-apiserver");
    assertThat(after).as("kube-apiserver's pid after the restart").isNotEqualTo(before);
    assertThat(ProcessHandle.of(before).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(controlPlane.apiServerUrl()).isEqualTo(url);
    assertThat(client.configMaps().withName("before").get()).isNotNull();
    client.resource(Widget.named("after", "2")).create();
    eventually(client.configMaps().withName("after")).exists();
    assertThat(faults.log())
        .anyMatch(l -> l.contains("apiserver down for 2000 ms"))
        .anyMatch(l -> l.contains("apiserver up again"));
  }

  @Test
  void aDelayHoldsTheRequestBackAndOnlyTheControllersRequests() throws Exception {
    InjectedFault delay =
        faults.respond(
            FaultRule.requests().verbs("get").resource("configmaps").delay(Duration.ofMillis(600)));
    client.configMaps().resource(configMap("probe")).create();

    // The test's own client does not go through the proxy: the rule never sees its request.
    assertThat(client.configMaps().withName("probe").get()).isNotNull();
    assertThat(delay.hits()).isZero();
    try (KubernetesClient proxied = proxiedAdmin()) {
      // A lower bound only: a busy machine can make the answer later, never sooner.
      long throughProxy =
          timed(() -> proxied.configMaps().inNamespace(namespace).withName("probe").get());
      assertThat(throughProxy).isGreaterThanOrEqualTo(600);
    }
    assertThat(delay.hits()).isEqualTo(1);
    assertThat(faults.log())
        .anyMatch(l -> l.contains("delayed   get configmaps " + namespace + "/probe by 600 ms"));
  }

  @Test
  void aRuleOfTheTestsFaultsStrikesOnlyItsNamespace() throws Exception {
    faults.respond(FaultRule.requests().verbs("get").resource("configmaps").conflict());
    client.configMaps().resource(configMap("probe")).create();
    try (KubernetesClient proxied = proxiedAdmin()) {
      assertThatThrownBy(() -> proxied.configMaps().inNamespace(namespace).withName("probe").get())
          .isInstanceOf(KubernetesClientException.class)
          .hasMessageContaining("409");
      client.configMaps().inNamespace("default").resource(configMap(namespace)).create();
      try {
        assertThat(proxied.configMaps().inNamespace("default").withName(namespace).get())
            .isNotNull();
      } finally {
        client.configMaps().inNamespace("default").withName(namespace).delete();
      }
    }
  }

  @Test
  void theProxyKeepsEveryIdentityAndLendsNone() throws Exception {
    // A client certificate: the user's own name reaches RBAC, not the proxy's.
    Config nobody = faults.route(controlPlane.addUser("nobody", List.of()).config());
    try (KubernetesClient asNobody = new KubernetesClientBuilder().withConfig(nobody).build()) {
      assertThatThrownBy(() -> asNobody.configMaps().inNamespace(namespace).list())
          .hasMessageContaining("User \"nobody\" cannot list resource \"configmaps\"");
    }
    // Identity headers sent by a caller are dropped, not believed.
    Config spoofing =
        new io.fabric8.kubernetes.client.ConfigBuilder(nobody)
            .withCustomHeaders(
                java.util.Map.of("X-Remote-User", "admin", "X-Remote-Group", "system:masters"))
            .build();
    try (KubernetesClient spoofer = new KubernetesClientBuilder().withConfig(spoofing).build()) {
      assertThatThrownBy(() -> spoofer.configMaps().inNamespace(namespace).list())
          .hasMessageContaining("User \"nobody\" cannot list");
    }
    // A bearer token passes through: the ServiceAccount is who the apiserver sees.
    client
        .serviceAccounts()
        .resource(
            new ServiceAccountBuilder().withNewMetadata().withName("robot").endMetadata().build())
        .create();
    Config robot =
        faults.route(
            Config.fromKubeconfig(controlPlane.serviceAccountKubeconfig(namespace, "robot")));
    try (KubernetesClient asRobot = new KubernetesClientBuilder().withConfig(robot).build()) {
      assertThatThrownBy(() -> asRobot.configMaps().inNamespace(namespace).list())
          .hasMessageContaining("system:serviceaccount:" + namespace + ":robot");
    }
    // No identity at all: refused by the proxy itself.
    HttpResponse<String> anonymous =
        AnonymousHttp.client()
            .send(
                HttpRequest.newBuilder(URI.create(faults.proxyUrl() + "/api/v1/namespaces"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.body()).contains("no client identity");
  }

  @Test
  void aRuleWithoutAResponseIsRefusedNamingWhatIsMissing() {
    assertThatThrownBy(() -> faults.respond(FaultRule.requests().verbs("get")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no response")
        .hasMessageContaining("conflict()");
    assertThatThrownBy(() -> FaultRule.requests().verbs("gett"))
        .hasMessageContaining("Unknown verb 'gett'");
  }

  private KubernetesClient proxiedAdmin() {
    return new KubernetesClientBuilder()
        .withConfig(
            faults.route(
                controlPlane.addUser("faults-it-admin", List.of("system:masters")).config()))
        .build();
  }

  private ConfigMap configMap(String name) {
    return new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToData("k", "v")
        .build();
  }

  // Log lines start with HH:mm:ss.SSS.
  private static long millisBetween(String earlier, String later) {
    return java.time.LocalTime.parse(earlier.substring(0, 12))
        .until(
            java.time.LocalTime.parse(later.substring(0, 12)),
            java.time.temporal.ChronoUnit.MILLIS);
  }

  private static boolean refusesConnections(int port) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return false;
    } catch (IOException refused) {
      return true;
    }
  }

  private static long timed(Runnable action) {
    long started = System.nanoTime();
    action.run();
    return Duration.ofNanos(System.nanoTime() - started).toMillis();
  }
}
