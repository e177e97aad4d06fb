package io.github.kubeharness.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InParallelTest {

  @Test
  void everyTaskRunsAtTheSameTimeAndTheResultsKeepTheItemsOrder() {
    List<String> items = List.of("hub", "edge-1", "edge-2", "edge-3");
    // Passed only when all four are waiting on it at once: one after the other would break it.
    CyclicBarrier allRunning = new CyclicBarrier(items.size());
    Map<String, Integer> results =
        InParallel.map(
            items,
            item -> {
              try {
                allRunning.await(10, TimeUnit.SECONDS);
              } catch (Exception e) {
                throw new IllegalStateException(item + " ran alone: " + e, e);
              }
              return item.length();
            },
            "test");
    assertThat(results.keySet()).containsExactlyElementsOf(items);
    assertThat(results.values()).containsExactly(3, 6, 6, 6);
  }

  @Test
  void theFirstItemsFailureIsThrownWithTheOthersAttachedAfterEveryTaskEnded() {
    Set<String> ended = ConcurrentHashMap.newKeySet();
    assertThatThrownBy(
            () ->
                InParallel.map(
                    List.of("a", "b", "c"),
                    item -> {
                      ended.add(item);
                      if (!item.equals("b")) {
                        throw new IllegalStateException(item + " failed");
                      }
                      return item;
                    },
                    "test"))
        .hasMessage("a failed")
        .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1))
        .satisfies(e -> assertThat(e.getSuppressed()[0]).hasMessage("c failed"));
    assertThat(ended).containsExactlyInAnyOrder("a", "b", "c");
  }

  @Test
  void noThreadOutlivesTheCall() {
    InParallel.map(List.of(1, 2, 3), i -> i, "in-parallel-test-thread");
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("in-parallel-test-thread"));
  }

  @Test
  void noItemsNoResults() {
    assertThat(InParallel.map(List.<String>of(), String::length, "test")).isEmpty();
  }
}
