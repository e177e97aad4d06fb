package io.github.kubeharness.assertions;

import static io.github.kubeharness.assertions.KubeAssertions.consistently;
import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Every assertion closes its watch and leaves no thread behind, whether it passes or fails. */
@ControllerTest(crds = "src/test/resources/crds")
class NoLeakIT {

  private static final String WEBHOOK_SERVER_THREADS = "kube-harness-webhook-";

  @TestNamespace String namespace;
  ControlPlane controlPlane;
  KubernetesClient admin;

  @Test
  void passingAndFailingAssertionsCloseTheirWatchesAndThreads() throws Exception {
    // The client's task pool normally keeps idle threads for a minute; here they end 200 ms after
    // their last task, so a thread that outlives the settle below is one still in use: a leak.
    ThreadPoolExecutor tasks =
        new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            200,
            TimeUnit.MILLISECONDS,
            new SynchronousQueue<>(),
            r -> {
              Thread t = new Thread(r, "leak-check-client-task");
              t.setDaemon(true);
              return t;
            });
    Config config = new ConfigBuilder(controlPlane.clientConfig()).withNamespace(namespace).build();
    try (KubernetesClient client =
        new KubernetesClientBuilder().withConfig(config).withTaskExecutor(tasks).build()) {
      client
          .configMaps()
          .resource(new ConfigMapBuilder().withNewMetadata().withName("x").endMetadata().build())
          .create();
      // The API server's own ConfigMap watches (authentication config) are the baseline.
      long baseline = configMapWatches();
      try (SharedIndexInformer<ConfigMap> informer = client.configMaps().withName("x").inform()) {
        // Proves the gauge counts a watch like the assertions' own, so the final check can fail.
        Awaitility.await()
            .pollInSameThread()
            .atMost(Duration.ofSeconds(10))
            .until(() -> configMapWatches() > baseline);
      }
      // Warm-up: the client starts its event-loop threads on first use; they are the client's.
      runEveryKindOfAssertion(client);
      Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());

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
                assertThat(configMapWatches()).isEqualTo(baseline);
              });
    } finally {
      tasks.shutdownNow();
    }
  }

  private static void runEveryKindOfAssertion(KubernetesClient client) {
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

  // The webhook server's pool serves the API server's calls into this JVM, not the assertions: an
  // earlier class's conversion webhook stays for the shared cluster's life, and the API server
  // calls it when its own controllers (garbage collector, namespace deletion) touch those objects.
  // CI's container pass saw three such threads start during this test.
  private static List<String> newThreads(Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> !before.contains(t))
        .filter(t -> !t.getName().startsWith(WEBHOOK_SERVER_THREADS))
        .filter(t -> !idleHttpClientWorker(t))
        .map(Thread::getName)
        .sorted()
        .collect(Collectors.toList());
  }

  // The JDK HTTP client's own pool (fabric8's transport): a worker made while the admin client asks
  // for /metrics, or while a request of the loop ran, stays parked in the pool for its keep-alive.
  // Idle there it holds nothing; a watch left open is what configMapWatches() counts. CI once saw
  // one such worker (HttpClient-109-Worker-3) appear during the settle.
  private static boolean idleHttpClientWorker(Thread t) {
    return t.getName().matches("HttpClient-\\d+-Worker-\\d+")
        && Arrays.stream(t.getStackTrace())
            .anyMatch(
                frame ->
                    frame.getClassName().equals("java.util.concurrent.ThreadPoolExecutor")
                        && frame.getMethodName().equals("getTask"));
  }

  /** Open watch requests on ConfigMaps, as the API server counts them. */
  private long configMapWatches() {
    List<String> series =
        admin
            .raw("/metrics")
            .lines()
            .filter(l -> l.startsWith("apiserver_longrunning_requests{"))
            .filter(l -> l.contains("resource=\"configmaps\"") && l.contains("verb=\"WATCH\""))
            .collect(Collectors.toList());
    return series.stream()
        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
