package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.faults.InjectedFault;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The operator under the API server's bad days, one fault per test, injected into its own traffic
 * by {@link Faults}: during the fault and after it ends it converges — status right (Ready from
 * pods the simulated node started), children as the spec says, one of each, no update lost.
 */
// snippet:faults (docs/faults.md)
@ControllerTest(
    crdClasses = Guestbook.class,
    reconcilers = GuestbookReconciler.class,
    profile = "simulated",
    backend = "local")
class GuestbookUnderFaultsIT {

  KubernetesClient client;
  ControlPlane controlPlane;
  Faults faults;
  @TestNamespace String namespace;

  @AfterEach
  void exactlyOneOfEachChild() {
    assertThat(client.configMaps().list().getItems())
        .filteredOn(c -> !c.getMetadata().getName().equals("kube-root-ca.crt"))
        .hasSizeLessThanOrEqualTo(1);
    assertThat(client.apps().deployments().list().getItems()).hasSizeLessThanOrEqualTo(1);
    assertThat(client.services().list().getItems()).hasSizeLessThanOrEqualTo(1);
  }

  @Test
  void conflictsOnTheStatusLoseNoUpdate() {
    InjectedFault conflicts =
        faults.respond(
            FaultRule.requests()
                .verbs("patch", "update")
                .resource("guestbooks/status")
                .times(3)
                .conflict());

    create("gb", 2, "first");
    edit("gb", "second");
    edit("gb", "third");

    convergesTo("gb", 2, "third");
    assertThat(conflicts.hits()).isPositive();
  }

  // end-snippet

  @Test
  void throttledChildWritesBackOffAndConverge() {
    InjectedFault throttle =
        faults.respond(
            FaultRule.requests()
                .verbs("patch", "create", "update")
                .resource("deployments")
                .times(3)
                .throttle(Duration.ofSeconds(1)));

    create("gb", 2, "hello");

    convergesTo("gb", 2, "hello");
    assertThat(throttle.hits()).isEqualTo(3);
    // The proxy answers the 429s itself, so the apiserver's audit log holds only the writes that
    // got through; the proxy's log holds both. The two agree on what passed, and what passed is a
    // handful — a client that retried at once, or gave up and re-reconciled in a loop, would show
    // dozens.
    long passedByProxy = deploymentWritesInFaultLog("passed");
    assertThat(deploymentWritesInFaultLog("answered")).isEqualTo(3);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> assertThat(auditedDeploymentWrites()).isEqualTo(passedByProxy).isBetween(1L, 5L));
  }

  private long deploymentWritesInFaultLog(String outcome) {
    return faults.log().stream()
        .filter(
            l ->
                l.matches(
                    ".*" + outcome + " +(patch|create|update) deployments " + namespace + "/.*"))
        .count();
  }

  /** Completed create/patch/update requests on the Deployments of the test's namespace. */
  private long auditedDeploymentWrites() throws IOException {
    ObjectMapper json = new ObjectMapper();
    try (Stream<String> lines = Files.lines(controlPlane.auditLogFile().orElseThrow())) {
      return lines
          .map(
              line -> {
                try {
                  return json.readTree(line);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .filter(e -> e.path("stage").asText().equals("ResponseComplete"))
          .filter(e -> Set.of("create", "patch", "update").contains(e.path("verb").asText()))
          .filter(e -> e.path("objectRef").path("resource").asText().equals("deployments"))
          .filter(e -> e.path("objectRef").path("namespace").asText().equals(namespace))
          // the deployment controller's status writes are not the operator's
          .filter(e -> e.path("objectRef").path("subresource").isMissingNode())
          .count();
    }
  }

  @Test
  void serverErrorsAndUnavailabilityOnTheChildrenAreRetried() {
    InjectedFault failing =
        faults.respond(
            FaultRule.requests()
                .resource("configmaps")
                .verbs("patch", "create")
                .times(2)
                .serverError());
    InjectedFault unavailable =
        faults.respond(
            FaultRule.requests()
                .resource("services")
                .verbs("patch", "create")
                .times(2)
                .unavailable());

    create("gb", 1, "hello");

    convergesTo("gb", 1, "hello");
    assertThat(failing.hits()).isEqualTo(2);
    assertThat(unavailable.hits()).isEqualTo(2);
  }

  @Test
  void droppedWatchesMissNoChange() {
    create("gb", 1, "hello");
    convergesTo("gb", 1, "hello");

    assertThat(faults.dropWatches()).isPositive();
    edit(
        "gb",
        spec -> {
          spec.setMessage("after the drop");
          spec.setReplicas(3);
        });

    convergesTo("gb", 3, "after the drop");
  }

  // snippet:restart (docs/faults.md)
  @Test
  void anApiServerRestartMidReconcileEndsConsistent() {
    create("gb", 2, "before");

    faults.apiServerDown(Duration.ofSeconds(3));
    edit("gb", "after");

    convergesTo("gb", 2, "after");
  }

  // end-snippet

  @Test
  void aSlowApiServerDelaysButDoesNotDerail() {
    InjectedFault slow =
        faults.respond(FaultRule.requests().probability(0.5).delay(Duration.ofMillis(300)));

    create("gb", 2, "slow");
    edit("gb", "slower");

    convergesTo("gb", 2, "slower");
    assertThat(slow.hits()).isPositive();
  }

  private void create(String name, int replicas, String message) {
    Guestbook guestbook = Guestbook.named(name);
    guestbook.getSpec().setReplicas(replicas);
    guestbook.getSpec().setMessage(message);
    client.resource(guestbook).create();
  }

  private void edit(String name, String message) {
    edit(name, spec -> spec.setMessage(message));
  }

  private void edit(String name, Consumer<GuestbookSpec> change) {
    SpecEdits.edit(guestbook(name), change);
  }

  private void convergesTo(String name, int replicas, String message) {
    eventually(client.configMaps().withName(name))
        .satisfies(c -> assertThat(c.getData()).containsEntry("message", message));
    eventually(client.apps().deployments().withName(name))
        .satisfies(d -> assertThat(d.getSpec().getReplicas()).isEqualTo(replicas));
    eventually(client.services().withName(name)).exists();
    eventually(guestbook(name)).satisfies(ReadyStatus.readyWith(replicas));
  }

  private Resource<Guestbook> guestbook(String name) {
    return client.resources(Guestbook.class).withName(name);
  }
}
