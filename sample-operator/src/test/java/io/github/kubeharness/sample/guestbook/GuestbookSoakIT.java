package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
    int edits = 0;
    String lastMessage = null;

    // The restarts run on a thread of their own, at fixed times from the start, so edits keep
    // coming while the API server is away; all of them fall inside the edit window. One that
    // throws ends the test with its failure (join below), instead of silently ending the restarts.
    int expectedRestarts = (int) ((MINUTES * 60 - 1) / RESTART_SECONDS);
    assertThat(expectedRestarts)
        .as("restarts in %d min at one every %d s", MINUTES, RESTART_SECONDS)
        .isPositive();
    AtomicInteger restarts = new AtomicInteger();
    long start = System.nanoTime();
    long end = start + TimeUnit.MINUTES.toNanos(MINUTES);
    ExecutorService restarter = Executors.newSingleThreadExecutor();
    try {
      CompletableFuture<Void> restarting =
          CompletableFuture.runAsync(
              () -> {
                for (int i = 1; i <= expectedRestarts; i++) {
                  sleepUntil(start + TimeUnit.SECONDS.toNanos(i * RESTART_SECONDS));
                  faults.restartApiServer();
                  restarts.incrementAndGet();
                }
              },
              restarter);
      while ((System.nanoTime() < end || !restarting.isDone())
          && !restarting.isCompletedExceptionally()) {
        int replicas = 1 + random.nextInt(3);
        String message = "edit " + edits;
        if (edit(replicas, message)) {
          lastMessage = message;
          edits++;
        }
        Thread.sleep(200 + random.nextInt(300));
      }
      restarting.join(); // a restart that failed fails the test here, with its cause
    } finally {
      restarter.shutdownNow();
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
    assertThat(restarts.get()).as("apiserver restarts").isEqualTo(expectedRestarts);
    assertThat(edits).isPositive();
  }

  private static void sleepUntil(long nanoTime) {
    try {
      long left = nanoTime - System.nanoTime();
      if (left > 0) {
        TimeUnit.NANOSECONDS.sleep(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("the restarts were interrupted", e);
    }
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
