package io.github.kubeharness.internal.backend;

import java.util.Optional;

/**
 * The bootstrapped keyspaces ({@link EtcdSeed#slotPrefix}) of one running etcd, each handed to one
 * cluster beside the first, once. Never handed out again, not even after that cluster stopped: its
 * objects are still there, and a cluster that saw another's leftovers would not be a cluster of its
 * own. A fresh etcd (a new copy of the seed) has all of them free again.
 */
final class SeedSlots {

  private final int count;
  private int next = 1;

  SeedSlots(int count) {
    this.count = count;
  }

  /** The slots of an etcd started from {@code seed}; none when it started empty (null). */
  public static SeedSlots of(EtcdSeed seed) {
    return new SeedSlots(seed == null ? 0 : EtcdSeed.SLOTS);
  }

  /**
   * The key prefix of a slot no one has had yet, now this caller's; empty when every slot is taken
   * (or the etcd has none), and the cluster must bootstrap a prefix of its own.
   */
  public synchronized Optional<String> claim() {
    if (next > count) {
      return Optional.empty();
    }
    return Optional.of(EtcdSeed.slotPrefix(next++));
  }
}
