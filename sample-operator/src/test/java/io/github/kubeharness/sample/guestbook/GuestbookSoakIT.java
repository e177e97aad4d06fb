package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.kubeharness.Faults;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Guestbook under continuous random edits while the API server is restarted on a period: at the
 * end, with the edits stopped, everything it owns says what the last edit said. {@code make soak}:
 * 30 minutes, a restart every 2 minutes; {@code .ci/run} a shorter pass ({@code
 * -Dkubeharness.soak.minutes}, {@code -Dkubeharness.soak.restart.seconds}).
 */
@Tag("soak")
@ControllerTest(
    crdClasses = Guestbook.class,
    reconcilers = GuestbookReconciler.class,
    profile = "simulated",
    backend = "local")
class GuestbookSoakIT {

  private static final long MINUTES = Long.getLong("kubeharness.soak.minutes", 30);
  private static final long RESTART_SECONDS = Long.getLong("kubeharness.soak.restart.seconds", 120);

  KubernetesClient client;
  Faults faults;

  @Test
  void randomEditsAndApiServerRestartsEndConsistent() throws Exception {
    Guestbook guestbook = Guestbook.named("soak");
    guestbook.getSpec().setReplicas(1);
    client.resource(guestbook).create();
    SplittableRandom random = new SplittableRandom(42);
    AtomicInteger restarts = new AtomicInteger();
    int edits = 0;
    String lastMessage = null;

    ScheduledExecutorService restarter = Executors.newSingleThreadScheduledExecutor();
    restarter.scheduleWithFixedDelay(
        () -> {
          faults.restartApiServer();
          restarts.incrementAndGet();
        },
        RESTART_SECONDS,
        RESTART_SECONDS,
        TimeUnit.SECONDS);
    long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(MINUTES);
    try {
      while (System.nanoTime() < end) {
        int replicas = 1 + random.nextInt(3);
        String message = "edit " + edits;
        if (edit(replicas, message)) {
          lastMessage = message;
          edits++;
        }
        Thread.sleep(200 + random.nextInt(300));
      }
    } finally {
      restarter.shutdown();
      restarter.awaitTermination(2, TimeUnit.MINUTES);
    }
    System.out.println(
        "[soak] "
            + edits
            + " edits, "
            + restarts.get()
            + " apiserver restarts in "
            + MINUTES
            + " min");

    // What the API server holds is the truth: an edit whose answer a restart cut off may have
    // been stored all the same.
    Guestbook last = guestbook().get();
    assertThat(last.getSpec().getMessage()).isIn(lastMessage, "edit " + edits);
    int replicas = last.getSpec().getReplicas();
    String message = last.getSpec().getMessage();
    eventually(client.configMaps().withName("soak"))
        .within(Duration.ofMinutes(2))
        .satisfies(c -> assertThat(c.getData()).containsEntry("message", message));
    eventually(client.apps().deployments().withName("soak"))
        .within(Duration.ofMinutes(2))
        .satisfies(d -> assertThat(d.getSpec().getReplicas()).isEqualTo(replicas));
    eventually(guestbook())
        .within(Duration.ofMinutes(2))
        .satisfies(ReadyStatus.readyWith(replicas));
    assertThat(client.apps().deployments().list().getItems()).hasSize(1);
    assertThat(client.services().list().getItems()).hasSize(1);
    assertThat(restarts.get()).isPositive();
    assertThat(edits).isPositive();
  }

  /** One edit; false when the API server was away or the write conflicted (tried again later). */
  private boolean edit(int replicas, String message) {
    try {
      guestbook()
          .edit(
              g -> {
                g.getSpec().setReplicas(replicas);
                g.getSpec().setMessage(message);
                return g;
              });
      return true;
    } catch (KubernetesClientException e) {
      return false;
    }
  }

  private Resource<Guestbook> guestbook() {
    return client.resources(Guestbook.class).withName("soak");
  }
}
