package io.github.kubeharness.assertions;

import static io.github.kubeharness.assertions.KubeAssertions.consistently;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.github.kubeharness.junit.ControllerTest;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@code consistently(...)} against a real API server. */
@ControllerTest(crds = "src/test/resources/crds")
class ConsistentlyIT {

  KubernetesClient client;

  @Test
  void satisfiesHoldsWhileNothingChanges() {
    createConfigMap("x", Map.of("k", "v"));
    ConfigMap cm =
        consistently(client.configMaps().withName("x"))
            .during(Duration.ofSeconds(1))
            .satisfies(c -> assertThat(c.getData()).containsEntry("k", "v"));
    assertThat(cm.getData()).containsEntry("k", "v");
  }

  @Test
  void doesNotExistHoldsWhileNothingIsCreated() {
    consistently(client.configMaps().withName("x")).during(Duration.ofMillis(500)).doesNotExist();
  }

  // The tests below change the object once the assertion watches it (WatchSignal), never after a
  // guessed delay: a change made before would be its initial state, and the test would check
  // something else than its name says.

  @Test
  void failsWhenTheObjectChangesMidway() throws Exception {
    createConfigMap("x", Map.of("k", "v"));
    try (WatchSignal assertion = WatchSignal.like(client);
        Later controller = Later.once(assertion.watching(), () -> setData("x", "k", "changed"))) {
      assertThatThrownBy(
              () ->
                  consistently(assertion.client().configMaps().withName("x"))
                      .during(Duration.ofSeconds(20))
                      .satisfies(c -> assertThat(c.getData()).containsEntry("k", "v")))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining(
              "Expected ConfigMap x in namespace "
                  + client.getNamespace()
                  + " to satisfy the given requirements throughout 20 s, but at +")
          .hasMessageContaining("(MODIFIED) it did not.")
          .hasMessageContaining("object at that point (MODIFIED at +")
          .hasMessageContaining("k: changed")
          .hasMessageContaining("changes seen while watching:")
          .hasMessageMatching("(?s).*MODIFIED \\(resourceVersion \\d+\\): data\\.k.*")
          .cause()
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("\"changed\"");
    }
  }

  @Test
  void catchesAChangeThatIsUndoneAtOnce() throws Exception {
    createConfigMap("x", Map.of("k", "v"));
    try (WatchSignal assertion = WatchSignal.like(client);
        Later controller =
            Later.once(
                assertion.watching(),
                () -> {
                  setData("x", "k", "flip");
                  setData("x", "k", "v");
                })) {
      // Polling the latest state could miss "flip"; checking every watch event cannot.
      assertThatThrownBy(
              () ->
                  consistently(assertion.client().configMaps().withName("x"))
                      .during(Duration.ofSeconds(20))
                      .satisfies(c -> assertThat(c.getData()).containsEntry("k", "v")))
          .hasMessageContaining("k: flip");
    }
  }

  @Test
  void checksEveryStateTheWatchDelivers() throws Exception {
    createConfigMap("x", Map.of("k", "v"));
    Set<String> written = ConcurrentHashMap.newKeySet();
    Set<String> checked = ConcurrentHashMap.newKeySet();
    try (WatchSignal assertion = WatchSignal.like(client);
        Later controller =
            Later.once(
                assertion.watching(),
                () -> {
                  // Twenty states in bursts (parallel writers): each is replaced by the next
                  // within a few milliseconds, so a check of the latest state every few
                  // milliseconds would skip many of them.
                  IntStream.range(0, 20)
                      .parallel()
                      .forEach(i -> written.add(patchData("x", "other", "v" + i)));
                  // Then one the check refuses: it ends the assertion after every state before
                  // it, however long the writes took.
                  patchData("x", "k", "done");
                })) {
      assertThatThrownBy(
              () ->
                  consistently(assertion.client().configMaps().withName("x"))
                      .during(Duration.ofSeconds(60))
                      .satisfies(
                          c -> {
                            checked.add(c.getMetadata().getResourceVersion());
                            assertThat(c.getData()).containsEntry("k", "v");
                          }))
          .hasMessageContaining("k: done");
    }
    assertThat(written).hasSize(20);
    assertThat(checked).containsAll(written);
  }

  @Test
  void doesNotExistFailsWhenTheObjectAppears() throws Exception {
    try (WatchSignal assertion = WatchSignal.like(client);
        Later controller =
            Later.once(assertion.watching(), () -> createConfigMap("x", Map.of("k", "v")))) {
      assertThatThrownBy(
              () ->
                  consistently(assertion.client().configMaps().withName("x"))
                      .during(Duration.ofSeconds(20))
                      .doesNotExist())
          .hasMessageContaining("not to exist throughout 20 s, but at +")
          .hasMessageContaining("(ADDED) it did not.")
          .hasMessageContaining("no deletion requested")
          .hasMessageContaining("initial state: absent");
    }
  }

  @Test
  void theInitialStateCountsToo() {
    assertThatThrownBy(
            () ->
                consistently(client.configMaps().withName("x"))
                    .during(Duration.ofSeconds(20))
                    .exists())
        .hasMessageContaining("(its initial state) it did not.")
        .hasMessageContaining("object at that point: absent at +");
  }

  private void createConfigMap(String name, Map<String, String> data) {
    Widgets.createConfigMap(client, name, data);
  }

  /** A merge patch of one key; returns the resourceVersion it made. */
  private String patchData(String name, String key, String value) {
    return client
        .configMaps()
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"" + key + "\":\"" + value + "\"}}")
        .getMetadata()
        .getResourceVersion();
  }

  private void setData(String name, String key, String value) {
    client
        .configMaps()
        .withName(name)
        .edit(c -> new ConfigMapBuilder(c).addToData(key, value).build());
  }
}
