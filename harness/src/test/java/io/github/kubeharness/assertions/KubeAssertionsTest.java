package io.github.kubeharness.assertions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Settings;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The default timeout and its setting, and how durations read in messages. */
class KubeAssertionsTest {

  @AfterEach
  void clearProperty() {
    System.clearProperty(Settings.EVENTUALLY_TIMEOUT_SECONDS);
  }

  @Test
  void defaultTimeoutIsThirtySeconds() {
    assertThat(KubeAssertions.defaultTimeout()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void systemPropertyOverridesTheDefaultTimeout() {
    System.setProperty(Settings.EVENTUALLY_TIMEOUT_SECONDS, "2.5");
    assertThat(KubeAssertions.defaultTimeout()).isEqualTo(Duration.ofMillis(2500));
  }

  @Test
  void anInvalidTimeoutNamesTheSettingAndTheFix() {
    System.setProperty(Settings.EVENTUALLY_TIMEOUT_SECONDS, "soon");
    assertThatThrownBy(KubeAssertions::defaultTimeout)
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("'soon'")
        .hasMessageContaining("kubeharness.eventually.timeout.seconds")
        .hasMessageContaining("KUBE_HARNESS_EVENTUALLY_TIMEOUT_SECONDS")
        .hasMessageContaining("positive number of seconds");
  }

  @Test
  void durationsReadLikeAPerson() {
    assertThat(ShouldEventually.human(Duration.ofSeconds(30))).isEqualTo("30 s");
    assertThat(ShouldEventually.human(Duration.ofMillis(500))).isEqualTo("500 ms");
    assertThat(ShouldEventually.human(Duration.ofMillis(1500))).isEqualTo("1.5 s");
  }
}
