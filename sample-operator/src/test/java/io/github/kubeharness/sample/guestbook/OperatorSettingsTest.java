package io.github.kubeharness.sample.guestbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Flags and environment variables of {@link GuestbookOperator}. */
class OperatorSettingsTest {

  @Test
  void defaultsForMakeRun() {
    OperatorSettings settings = OperatorSettings.parse(new String[0], Map.of());

    assertThat(settings.probeAddress().getPort()).isEqualTo(8081);
    assertThat(settings.probeAddress().getAddress().isAnyLocalAddress()).isTrue();
    assertThat(settings.leaderElection()).isFalse();
    assertThat(settings.namespaces()).isEmpty();
  }

  @Test
  void deployedThePodNamespaceTurnsLeaderElectionOn() {
    OperatorSettings settings =
        OperatorSettings.parse(new String[0], Map.of("POD_NAMESPACE", "guestbook-system"));

    assertThat(settings.leaderElection()).isTrue();
    assertThat(settings.leaseNamespace()).isEqualTo("guestbook-system");
  }

  @Test
  void flagsWinOverEnvironment() {
    OperatorSettings settings =
        OperatorSettings.parse(
            new String[] {
              "--health-probe-bind-address=127.0.0.1:9440",
              "--leader-elect=false",
              "--namespaces=a, b"
            },
            Map.of("POD_NAMESPACE", "guestbook-system", "WATCH_NAMESPACE", "c"));

    assertThat(settings.probeAddress().getHostString()).isEqualTo("127.0.0.1");
    assertThat(settings.probeAddress().getPort()).isEqualTo(9440);
    assertThat(settings.leaderElection()).isFalse();
    assertThat(settings.namespaces()).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void leaderElectionWithoutANamespaceSaysHowToGiveOne() {
    assertThatThrownBy(() -> OperatorSettings.parse(new String[] {"--leader-elect"}, Map.of()))
        .hasMessageContaining("--leader-election-namespace")
        .hasMessageContaining("POD_NAMESPACE");
  }

  @Test
  void badInputNamesTheFlag() {
    assertThatThrownBy(() -> OperatorSettings.parse(new String[] {"--metrics"}, Map.of()))
        .hasMessageContaining("Unknown argument '--metrics'")
        .hasMessageContaining("Usage:");
    assertThatThrownBy(
            () -> OperatorSettings.parse(new String[] {"--health-probe-bind-address=x"}, Map.of()))
        .hasMessageContaining("Invalid health probe address 'x'");
    assertThatThrownBy(() -> OperatorSettings.parse(new String[] {"--leader-elect=yes"}, Map.of()))
        .hasMessageContaining("--leader-elect takes true or false");
  }
}
