package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.assertThatResource;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import java.util.function.Consumer;

/** What "converged" means for a Guestbook's status, for tests that edit it while it reconciles. */
final class ReadyStatus {

  private ReadyStatus() {}

  /**
   * Ready, for the current generation, with {@code replicas} ready pods — checked on one read: a
   * status written for an earlier generation can be Ready too.
   */
  static Consumer<Guestbook> readyWith(int replicas) {
    return g -> {
      assertThatResource(g).hasCondition("Ready", "True");
      assertThat(g.getStatus().getObservedGeneration()).isEqualTo(g.getMetadata().getGeneration());
      assertThat(g.getStatus().getReadyReplicas()).isEqualTo(replicas);
    };
  }
}
