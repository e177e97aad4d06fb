package io.github.kubeharness.junit;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.faults.HeldEvents;
import io.github.kubeharness.faults.Watches;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The delivery of watch events under the test's control: held events reach the controller only once
 * released, a seeded release interleaves different watches but never one watch's own events, an
 * event can come twice, and an ended watch's held events come again on the next one.
 */
@ControllerTest(
    backend = "local",
    crds = "src/test/resources/crds",
    reconcilers = WidgetReconciler.class)
class WatchesIT {

  KubernetesClient client;
  ControlPlane controlPlane;
  Faults faults;
  WidgetReconciler reconciler;
  @TestNamespace String namespace;

  /** A client through the proxy, as the controllers': its watches go through the gate. */
  private KubernetesClient proxied;

  /** What the test's own watches received, across watches, in the order received. */
  private final List<String> received = new CopyOnWriteArrayList<>();

  private final List<Watch> watches = new CopyOnWriteArrayList<>();

  @BeforeEach
  void proxiedClient() {
    proxied =
        new KubernetesClientBuilder()
            .withConfig(
                faults.route(
                    controlPlane.addUser("watches-it", List.of("system:masters")).config()))
            .build();
  }

  @AfterEach
  void close() {
    watches.forEach(Watch::close);
    proxied.close();
  }

  @Test
  void aHeldWidgetIsReconciledOnlyOnceReleased() {
    HeldEvents widgets = faults.watches().hold("widgets");

    client.resource(Widget.named("w", "hello")).create();

    Awaitility.await().until(widgets::count, n -> n >= 1);
    // The informer can learn of the widget only from its watch, which holds its ADDED back.
    assertThat(reconciler.reconciled).doesNotContain(namespace + "/w");

    widgets.release();

    eventually(client.resources(Widget.class).withName("w")).hasCondition("Ready", "True");
    assertThat(reconciler.reconciled).contains(namespace + "/w");
  }

  @Test
  void aSeededReleaseInterleavesWatchesAndKeepsEachWatchInOrder() {
    watch("configmaps");
    watch("secrets");
    List<String> first = heldAndReleased(faults.watches(), "first");
    assertThat(first).hasSize(10);
    assertThat(received).hasSize(10);
    // Delivered as scheduled: across the two watches too, and each watch in its own order.
    assertThat(objects(received)).isEqualTo(objects(first));
    assertThat(objects(received).stream().filter(o -> o.startsWith("configmaps")))
        .containsExactly(
            "configmaps first-0",
            "configmaps first-1",
            "configmaps first-2",
            "configmaps first-3",
            "configmaps first-4");

    // Another view with the same seed makes the same choices over the same kind of events.
    received.clear();
    Watches sameSeed = faults.inNamespace(namespace).watches();
    assertThat(sameSeed.seed()).isEqualTo(faults.watches().seed());
    List<String> second = heldAndReleased(sameSeed, "second");
    assertThat(kinds(second)).isEqualTo(kinds(first));
  }

  @Test
  void theNewestEventComesAgainAsAfterARelist() {
    watch("configmaps");
    client.resource(configMap("c")).create();
    Awaitility.await().until(() -> received.size() == 1);

    assertThat(faults.watches().duplicateNewest("configmaps")).isEqualTo(1);

    Awaitility.await().until(() -> received.size() == 2);
    assertThat(received.get(1)).isEqualTo(received.get(0));
  }

  @Test
  void eventsHeldOnAnEndedWatchArriveOnTheNextOne() {
    watch("configmaps");
    HeldEvents held = faults.watches().hold("configmaps");
    client.resource(configMap("c")).create();
    Awaitility.await().until(held::count, n -> n == 1);

    assertThat(faults.watches().end("configmaps")).isEqualTo(1);
    held.release();

    // fabric8 watches again from the last resourceVersion it saw; the API server sends it then.
    Awaitility.await().until(() -> received.size() == 1);
    assertThat(received.get(0)).startsWith("ADDED configmaps c");
    assertThat(faults.log()).anyMatch(l -> l.contains("ended     watch configmaps " + namespace));
  }

  /** Holds both kinds, writes five of each alternately, releases them in the seed's order. */
  private List<String> heldAndReleased(Watches control, String prefix) {
    HeldEvents configMaps = control.hold("configmaps");
    HeldEvents secrets = control.hold("secrets");
    for (int i = 0; i < 5; i++) {
      client.resource(configMap(prefix + "-" + i)).create();
      client
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName(prefix + "-" + i)
                  .endMetadata()
                  .addToStringData("i", Integer.toString(i))
                  .build())
          .create();
    }
    Awaitility.await().until(() -> configMaps.count() == 5 && secrets.count() == 5);
    assertThat(received).isEmpty();
    List<String> schedule = control.releaseAll();
    Awaitility.await().until(() -> received.size() == 10);
    return schedule;
  }

  private void watch(String resource) {
    Watcher<HasMetadata> watcher =
        new Watcher<>() {
          @Override
          public void eventReceived(Action action, HasMetadata object) {
            received.add(
                action
                    + " "
                    + resource
                    + " "
                    + object.getMetadata().getName()
                    + " rv "
                    + object.getMetadata().getResourceVersion());
          }

          @Override
          public void onClose(WatcherException cause) {}
        };
    @SuppressWarnings("unchecked")
    Watcher<io.fabric8.kubernetes.api.model.ConfigMap> configMaps =
        (Watcher<io.fabric8.kubernetes.api.model.ConfigMap>) (Watcher<?>) watcher;
    @SuppressWarnings("unchecked")
    Watcher<io.fabric8.kubernetes.api.model.Secret> secretsWatcher =
        (Watcher<io.fabric8.kubernetes.api.model.Secret>) (Watcher<?>) watcher;
    watches.add(
        resource.equals("configmaps")
            ? proxied.configMaps().inNamespace(namespace).watch(configMaps)
            : proxied.secrets().inNamespace(namespace).watch(secretsWatcher));
  }

  /** {@code configmaps first-0} from a schedule's or a watcher's line. */
  private static List<String> objects(List<String> lines) {
    return lines.stream()
        .map(l -> l.replaceAll(".*(ADDED|MODIFIED|DELETED) ", ""))
        .map(l -> l.replaceAll(" rv .*", "").replaceAll(" [^ ]+/", " "))
        .toList();
  }

  private static List<String> kinds(List<String> schedule) {
    return objects(schedule).stream().map(o -> o.substring(0, o.indexOf(' '))).toList();
  }

  private static io.fabric8.kubernetes.api.model.ConfigMap configMap(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToData("k", "v")
        .build();
  }
}
