package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.junit.scenarios.ParallelScenarios;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

/**
 * After a run of @ControllerTest classes every thread it started is gone: controllers, informers,
 * clients. (The JDK's HttpClient selector threads end only when their client is garbage-collected,
 * and pooled JDK threads idle out on their own; those are not the harness's to stop.)
 *
 * <p>The wait is longer than a fabric8 client's pool keeps an idle thread (60 s): a client that
 * outlives the scenario (the shared cluster's, kept beside the JVM's control plane) may start a
 * pool thread while the scenario runs, and that thread is gone a minute later. A client the
 * scenario leaves open keeps its vert.x event-loop threads for good, so the check still sees it.
 */
class ThreadLeakIT {

  private static final Pattern JDK_OWNED =
      Pattern.compile(
          "HttpClient-\\d+-(SelectorManager|Worker-\\d+)|ForkJoinPool.*|process reaper.*|Attach Listener|Common-Cleaner");

  @Test
  void controllersAndClientsLeaveNoThreadsBehind() {
    ParallelScenarios.bothRunning = new CountDownLatch(0);
    // A first run warms up what outlives it: the JVM's control plane of these options is shared
    // with the suite's own classes (one registry per JVM), and so are the clients kept beside it,
    // whose pools start their threads lazily, on first use, and keep them. What a run owns and
    // leaks, it leaks again on every run: the second run must leave nothing new.
    runScenario();
    Set<Long> before = liveThreadIds();
    runScenario();

    // Polled by hand rather than with Awaitility, whose own thread would count as new.
    Map<String, String> leaked = newThreads(before);
    for (int i = 0; i < 700 && !leaked.isEmpty(); i++) {
      System.gc();
      sleep(100);
      leaked = newThreads(before);
    }
    // Each leaked thread with its stack: what it is still doing says who started it.
    assertThat(leaked).isEmpty();
  }

  // The scenario must have run through: a run that failed early starts fewer threads, and the leak
  // check would pass without testing anything.
  private static void runScenario() {
    assertThat(ScenarioRunner.run(ParallelScenarios.First.class))
        .extracting(ScenarioRunner.Outcome::status)
        .containsExactly(TestExecutionResult.Status.SUCCESSFUL);
  }

  private static Map<String, String> newThreads(Set<Long> before) {
    return Thread.getAllStackTraces().entrySet().stream()
        .filter(e -> e.getKey().isAlive())
        .filter(e -> !before.contains(e.getKey().getId()))
        .filter(e -> !JDK_OWNED.matcher(e.getKey().getName()).matches())
        .collect(
            Collectors.toMap(
                e -> e.getKey().getName(),
                e ->
                    Arrays.stream(e.getValue())
                        .map(frame -> "\n\tat " + frame)
                        .collect(Collectors.joining()),
                (a, b) -> a));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Set<Long> liveThreadIds() {
    return Thread.getAllStackTraces().keySet().stream()
        .map(Thread::getId)
        .collect(Collectors.toSet());
  }
}
