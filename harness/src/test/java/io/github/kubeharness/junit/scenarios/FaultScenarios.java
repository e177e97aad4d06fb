package io.github.kubeharness.junit.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** Test classes with {@code Faults}, run by FaultRulesIT as a user's build would run them. */
public final class FaultScenarios {

  private FaultScenarios() {}

  /**
   * A rule that would strike the next test too, had it outlived its own: it names a namespace
   * outside either test's, so only its ending with the first test keeps it from the second.
   */
  @ControllerTest(backend = "local", crds = "src/test/resources/crds")
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  public static class RuleOfAnEarlierTestScenario {

    ControlPlane controlPlane;
    Faults faults;

    @Test
    @Order(1)
    void injectsARuleForAnotherNamespace() {
      faults.respond(
          FaultRule.requests()
              .verbs("get")
              .resource("configmaps")
              .namespace("default")
              .name("rule-of-an-earlier-test")
              .conflict());
      try (KubernetesClient proxied = proxiedAdmin()) {
        assertThatThrownBy(() -> getProbe(proxied))
            .isInstanceOf(KubernetesClientException.class)
            .hasMessageContaining("409");
      }
    }

    @Test
    @Order(2)
    void findsThatRuleGone() {
      try (KubernetesClient proxied = proxiedAdmin()) {
        assertThat(getProbe(proxied)).isNull(); // passed on: the API server has no such object
      }
    }

    private static Object getProbe(KubernetesClient proxied) {
      return proxied.configMaps().inNamespace("default").withName("rule-of-an-earlier-test").get();
    }

    private KubernetesClient proxiedAdmin() {
      return FaultScenarios.proxiedAdmin(controlPlane, faults, "rule-scenario-admin");
    }
  }

  /** Two failures: one after the controller met a fault, one without any. */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = WidgetReconciler.class)
  public static class FailingUnderFaultsScenario {

    KubernetesClient client;
    Faults faults;

    @Test
    void failsAfterAConflict() {
      faults.respond(
          FaultRule.requests().verbs("patch").resource("widgets/status").times(1).conflict());
      client.resource(Widget.named("w", "hello")).create();
      eventually(client.resources(Widget.class).withName("w")).hasCondition("Ready", "True");
      // A request is logged once its answer has ended: wait for the status patch that passed.
      Awaitility.await()
          .until(
              () ->
                  faults.log().stream()
                      .anyMatch(l -> l.contains("passed    patch widgets/status")));
      throw new AssertionError("fails on purpose, after a conflict the controller got over");
    }

    @Test
    void failsWithoutAFault() {
      client.resource(Widget.named("w", "hello")).create();
      eventually(client.resources(Widget.class).withName("w")).hasCondition("Ready", "True");
      throw new AssertionError("fails on purpose, no fault injected");
    }
  }

  /**
   * An admin client whose requests go through the fault proxy (as the controllers' do), with
   * fabric8's retries off so that each injected answer shows.
   */
  public static KubernetesClient proxiedAdmin(
      ControlPlane controlPlane, Faults faults, String user) {
    return OneTry.client(
        faults.route(controlPlane.addUser(user, List.of("system:masters")).config()));
  }
}
