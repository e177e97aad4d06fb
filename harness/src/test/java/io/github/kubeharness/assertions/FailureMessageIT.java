package io.github.kubeharness.assertions;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static io.github.kubeharness.assertions.Widgets.condition;
import static io.github.kubeharness.assertions.Widgets.setConditions;
import static io.github.kubeharness.assertions.Widgets.widget;
import static io.github.kubeharness.assertions.Widgets.widgets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.junit.ControllerTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a timed-out {@code eventually} tells the reader. */
@ControllerTest(crds = "src/test/resources/crds")
class FailureMessageIT {

  KubernetesClient client;

  @Test
  void timeoutShowsExpectationConditionsLastObjectAndHistory() throws Exception {
    widgets(client).resource(widget("w")).create();
    // Written before the clock starts, so the one write made while waiting is quick.
    setConditions(client, "w", condition("Progressing", "True", "Scaling", "1 of 3 ready"));
    AssertionError error;
    // The write comes once the assertion watches, so it is a change it sees, not its initial
    // state; the 5 s leave a loaded machine time for the one write.
    try (WatchSignal assertion = WatchSignal.like(client);
        Later controller =
            Later.once(
                assertion.watching(),
                () ->
                    setConditions(
                        client,
                        "w",
                        condition("Progressing", "True", "Scaling", "2 of 3 ready"),
                        condition("Ready", "False", "Degraded", "replica 2 crashed")))) {
      error =
          catchThrowableOfType(
              AssertionError.class,
              () ->
                  eventually(widgets(assertion.client()).withName("w"))
                      .within(Duration.ofSeconds(5))
                      .hasCondition("Ready", "True"));
    }
    System.out.println("--- example failure message ---\n" + error.getMessage());

    assertThat(error)
        .hasMessageStartingWith(
            "Expected Widget w in namespace "
                + client.getNamespace()
                + " to have condition Ready=True within 5 s.")
        .hasMessageContaining("last check failed:")
        .hasMessageContaining("its conditions are:")
        .hasMessageContaining("Ready=False (Degraded: replica 2 crashed)")
        .hasMessageContaining("Progressing=True (Scaling: 2 of 3 ready)")
        .hasMessageContaining("last observed object (MODIFIED at +")
        .hasMessageContaining("kind: Widget")
        .hasMessageContaining("reason: Degraded")
        .hasMessageContaining("changes seen while waiting:")
        .hasMessageContaining("initial state: present (resourceVersion ")
        .hasMessageMatching(
            "(?s).*\\+\\d+\\.\\d{3}s MODIFIED \\(resourceVersion \\d+, generation 1\\): "
                + "status\\.conditions\\[Progressing\\]\\.message, \\+status\\.conditions\\[Ready\\].*")
        .hasMessageNotContaining("managedFields");
    assertThat(error.getCause())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("to have condition Ready=True, but its conditions are:");
  }

  @Test
  void neverObservedSaysSo() {
    assertThatThrownBy(
            () ->
                eventually(client.configMaps().withName("ghost"))
                    .within(Duration.ofMillis(500))
                    .exists())
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith(
            "Expected ConfigMap ghost in namespace "
                + client.getNamespace()
                + " to exist within 500 ms.")
        .hasMessageContaining("to exist, but it does not")
        .hasMessageContaining("never observed: the object did not exist at any point")
        .hasMessageNotContaining("changes seen while waiting");
  }

  @Test
  void aKindTheServerDoesNotServeFailsAtOnceWithTheFix() {
    ResourceDefinitionContext notInstalled =
        new ResourceDefinitionContext.Builder()
            .withGroup("missing.kubeharness.io")
            .withVersion("v1")
            .withKind("Gadget")
            .withPlural("gadgets")
            .withNamespaced(true)
            .build();
    assertThatThrownBy(
            () ->
                eventually(client.genericKubernetesResources(notInstalled).withName("g")).exists())
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageStartingWith("Could not watch Gadget g in namespace " + client.getNamespace())
        .hasMessageContaining("the CRD is installed and Established")
        .hasCauseInstanceOf(KubernetesClientException.class);
  }

  @Test
  void aResourceBuiltFromAnItemIsNamedToo() {
    var ghost = new ConfigMapBuilder().withNewMetadata().withName("ghost").endMetadata().build();
    assertThatThrownBy(
            () -> eventually(client.resource(ghost)).within(Duration.ofMillis(300)).exists())
        .hasMessageStartingWith("Expected ConfigMap ghost to exist within 300 ms.");
  }

  @Test
  void theUsersLastAssertionErrorIsTheCause() {
    createConfigMap("x");
    AssertionError error =
        catchThrowableOfType(
            AssertionError.class,
            () ->
                eventually(client.configMaps().withName("x"))
                    .within(Duration.ofMillis(500))
                    .satisfies(c -> assertThat(c.getData()).containsKey("missing")));
    assertThat(error)
        .hasMessageContaining("to satisfy the given requirements within 500 ms.")
        .hasMessageContaining("last check failed:")
        .hasMessageContaining("\"missing\"");
    assertThat(error.getCause())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("to contain key")
        .hasMessageContaining("\"missing\"");
  }

  @Test
  void anExceptionInTheCheckCountsAsAFailedCheck() {
    createConfigMap("x");
    assertThatThrownBy(
            () ->
                eventually(client.configMaps().withName("x"))
                    .within(Duration.ofMillis(500))
                    .satisfies(c -> assertThat(c.getData().get("missing").length()).isPositive()))
        .hasMessageContaining("the check threw java.lang.NullPointerException")
        .cause()
        .hasCauseInstanceOf(NullPointerException.class);
  }

  @Test
  void aDeletionStuckOnAFinalizerIsExplained() throws Exception {
    client
        .configMaps()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("held")
                .withFinalizers("test.kubeharness.io/hold")
                .endMetadata()
                .build())
        .create();
    client.configMaps().withName("held").delete();
    try {
      assertThatThrownBy(
              () ->
                  eventually(client.configMaps().withName("held"))
                      .within(Duration.ofMillis(500))
                      .isDeleted())
          .hasMessageContaining("to be deleted within 500 ms.")
          .hasMessageContaining(
              "waiting for a controller to remove finalizers [test.kubeharness.io/hold]")
          .hasMessageContaining("deletionTimestamp:");
    } finally {
      client
          .configMaps()
          .withName("held")
          .edit(
              c -> {
                c.getMetadata().setFinalizers(List.of());
                return c;
              });
    }
    eventually(client.configMaps().withName("held")).isDeleted();
  }

  private void createConfigMap(String name) {
    client
        .configMaps()
        .resource(new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }
}
