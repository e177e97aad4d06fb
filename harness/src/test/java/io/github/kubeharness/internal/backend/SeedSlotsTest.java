package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.internal.process.InParallel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Each bootstrapped keyspace of a seeded etcd goes to one cluster, once. */
class SeedSlotsTest {

  @Test
  void clustersClaimingTogetherNeverShareASlot() {
    for (int round = 0; round < 20; round++) {
      SeedSlots slots = new SeedSlots(EtcdSeed.SLOTS);
      List<Integer> claimers = IntStream.range(0, EtcdSeed.SLOTS + 3).boxed().toList();
      List<Optional<String>> claimed =
          new ArrayList<>(InParallel.map(claimers, i -> slots.claim(), "claim").values());

      List<String> got = claimed.stream().flatMap(Optional::stream).toList();
      assertThat(got).doesNotHaveDuplicates().hasSize(EtcdSeed.SLOTS);
      // The rest bootstrap prefixes of their own.
      assertThat(claimed.stream().filter(Optional::isEmpty)).hasSize(3);
    }
  }

  @Test
  void aSlotIsNeverHandedOutTwice() {
    SeedSlots slots = new SeedSlots(EtcdSeed.SLOTS);
    List<String> got = new ArrayList<>();
    for (int i = 0; i < EtcdSeed.SLOTS; i++) {
      got.add(slots.claim().orElseThrow());
    }
    assertThat(got)
        .containsExactly(
            IntStream.rangeClosed(1, EtcdSeed.SLOTS)
                .mapToObj(EtcdSeed::slotPrefix)
                .toArray(String[]::new));
    // Its cluster may have stopped meanwhile: its objects are still there.
    assertThat(slots.claim()).isEmpty();
    assertThat(slots.claim()).isEmpty();
  }

  @Test
  void anEtcdStartedWithoutASeedHasNoSlots() {
    assertThat(SeedSlots.of(null).claim()).isEmpty();
  }

  @Test
  void noSlotPrefixIsTheFallbackPrefixOfAnyClusterName() {
    // A cluster that finds no slot free stores under /registry-<name>, its name a DNS label.
    for (int slot = 1; slot <= EtcdSeed.SLOTS; slot++) {
      String prefix = EtcdSeed.slotPrefix(slot);
      assertThat(prefix).startsWith("/registry");
      assertThat(prefix.substring("/registry".length())).doesNotMatch("-[a-z0-9-]*");
      assertThat(prefix).isNotEqualTo("/registry");
    }
  }
}
