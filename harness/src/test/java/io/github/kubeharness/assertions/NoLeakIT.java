package io.github.kubeharness.assertions;

import static io.github.kubeharness.assertions.KubeAssertions.consistently;
import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every assertion closes its watch and leaves no thread behind, whether it passes or fails. */
class NoLeakIT {

  static TestCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = TestCluster.start();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @Test
  void passingAndFailingAssertionsCloseTheirWatchesAndThreads() {
    NamespacedKubernetesClient client = cluster.newNamespace();
    client
        .configMaps()
        .resource(new ConfigMapBuilder().withNewMetadata().withName("x").endMetadata().build())
        .create();
    // Warm-up: the client creates its connection pool and event-loop threads on first use; those
    // belong to the client, not to the assertions.
    runEveryKindOfAssertion(client);
    long idle = configMapWatches();
    try (SharedIndexInformer<ConfigMap> informer = client.configMaps().withName("x").inform()) {
      // Proves the gauge below counts a watch like the assertions' own.
      Awaitility.await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(10))
          .until(() -> configMapWatches() > idle);
    }
    Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
    long watchesBefore = configMapWatches();

    for (int i = 0; i < 3; i++) {
      runEveryKindOfAssertion(client);
    }

    // Closing is asynchronous on the client side (the websocket close handshake), hence a
    // short settle rather than an immediate check.
    Awaitility.await()
        .pollInSameThread() // Awaitility's own polling thread would count as a new thread
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> {
              assertThat(newThreads(before)).isEmpty();
              assertThat(configMapWatches()).isEqualTo(watchesBefore);
            });
  }

  private static void runEveryKindOfAssertion(NamespacedKubernetesClient client) {
    Duration brief = Duration.ofMillis(200);
    eventually(client.configMaps().withName("x")).exists();
    eventually(client.configMaps().withName("absent")).isDeleted();
    catchThrowableOfType(
        AssertionError.class,
        () -> eventually(client.configMaps().withName("absent")).within(brief).exists());
    consistently(client.configMaps().withName("x")).during(brief).exists();
    catchThrowableOfType(
        AssertionError.class,
        () -> consistently(client.configMaps().withName("x")).during(brief).doesNotExist());
  }

  private static List<String> newThreads(Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> !before.contains(t))
        .map(Thread::getName)
        .sorted()
        .collect(Collectors.toList());
  }

  /** Open watch requests on ConfigMaps, as the API server counts them. */
  private static long configMapWatches() {
    List<String> series =
        cluster
            .admin()
            .raw("/metrics")
            .lines()
            .filter(l -> l.startsWith("apiserver_longrunning_requests{"))
            .filter(l -> l.contains("resource=\"configmaps\"") && l.contains("verb=\"WATCH\""))
            .collect(Collectors.toList());
    // The series appears with the first ConfigMap watch: its presence shows the gauge does see
    // the assertions' watches, so "back to the count before" is a real check.
    assertThat(series).as("apiserver_longrunning_requests for ConfigMap watches").isNotEmpty();
    return series.stream()
        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
