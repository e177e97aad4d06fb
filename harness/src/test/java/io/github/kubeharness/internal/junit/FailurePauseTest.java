package io.github.kubeharness.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.PauseOnFailure;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When a failure pauses, from the setting and the environment's CI variable. */
class FailurePauseTest {

  private static final Duration TEN = Duration.ofMinutes(10);

  @Test
  void trueDoesNotPauseInCiAndSaysHowToForceIt() {
    FailurePause inCi = FailurePause.of(PauseOnFailure.TRUE, TEN, "true");
    assertThat(inCi.enabled()).isFalse();
    assertThat(inCi.note()).hasValueSatisfying(n -> assertThat(n).contains("CI=true", "always"));
  }

  @Test
  void truePausesOutsideCi() {
    assertThat(FailurePause.of(PauseOnFailure.TRUE, TEN, null).enabled()).isTrue();
    assertThat(FailurePause.of(PauseOnFailure.TRUE, TEN, "").enabled()).isTrue();
    assertThat(FailurePause.of(PauseOnFailure.TRUE, TEN, "false").enabled()).isTrue();
  }

  @Test
  void alwaysPausesInCiAndFalseNever() {
    assertThat(FailurePause.of(PauseOnFailure.ALWAYS, TEN, "true").enabled()).isTrue();
    assertThat(FailurePause.of(PauseOnFailure.FALSE, TEN, null)).isEqualTo(FailurePause.NEVER);
  }

  @Test
  void theKubeconfigHandedOutPointsAtTheTestsNamespace() {
    String kubeconfig =
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "current-context: kube-harness",
            "clusters:",
            "- name: kube-harness",
            "  cluster: {server: 'https://127.0.0.1:6443'}",
            "contexts:",
            "- name: other",
            "  context: {cluster: kube-harness, user: admin}",
            "- name: kube-harness",
            "  context: {cluster: kube-harness, user: admin}",
            "users:",
            "- name: admin",
            "  user: {token: secret}");
    Config config =
        Serialization.unmarshal(FailurePause.inNamespace(kubeconfig, "test-ns"), Config.class);
    assertThat(config.getContexts())
        .filteredOn(c -> c.getName().equals("kube-harness"))
        .singleElement()
        .satisfies(c -> assertThat(c.getContext().getNamespace()).isEqualTo("test-ns"));
    assertThat(config.getContexts())
        .filteredOn(c -> c.getName().equals("other"))
        .singleElement()
        .satisfies(c -> assertThat(c.getContext().getNamespace()).isNull());
    assertThat(config.getUsers().get(0).getUser().getToken()).isEqualTo("secret");
  }
}
