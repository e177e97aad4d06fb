package io.github.kubeharness.junit.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.NamespaceMode;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two tests sharing one namespace (namespaceMode = PER_CLASS) that JUnit would run at the same
 * time: each waits in its body until the other has ended, so the second can only end by being
 * refused before its body.
 */
@ControllerTest(crds = "src/test/resources/crds", namespaceMode = NamespaceMode.PER_CLASS)
public class PerClassInParallelScenario {

  /** Counted down after each test. */
  public static volatile CountDownLatch anotherEnded = new CountDownLatch(1);

  @Test
  void one() throws InterruptedException {
    waitForTheOther();
  }

  @Test
  void two() throws InterruptedException {
    waitForTheOther();
  }

  private static void waitForTheOther() throws InterruptedException {
    assertThat(anotherEnded.await(60, TimeUnit.SECONDS)).as("the other test ended").isTrue();
  }

  // A callback, not an @AfterEach method: JUnit runs it after a test refused in its set-up too.
  @RegisterExtension static final AfterEachCallback ENDED = context -> anotherEnded.countDown();
}
