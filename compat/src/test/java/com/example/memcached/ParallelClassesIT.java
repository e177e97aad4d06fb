package com.example.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.example.memcached.scenarios.ParallelPairScenarios;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * The two-line parallel set-up of docs/controller-test.md on this module's JUnit: two classes run
 * at the same time, each in its own namespace, and both pass.
 */
class ParallelClassesIT {

  @Test
  void twoClassesRunAtTheSameTime() {
    ParallelPairScenarios.bothRunning = new CountDownLatch(2);
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request()
                .selectors(
                    selectClass(ParallelPairScenarios.One.class),
                    selectClass(ParallelPairScenarios.Two.class))
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter(
                    "junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
                .build(),
            listener);

    assertThat(listener.getSummary().getFailures())
        .as("failures")
        .extracting(f -> f.getTestIdentifier().getDisplayName() + ": " + f.getException())
        .isEmpty();
    assertThat(listener.getSummary().getTestsSucceededCount()).isEqualTo(2);
  }
}
