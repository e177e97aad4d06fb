package io.github.kubeharness.internal.faults;

import io.github.kubeharness.faults.HeldEvents;
import io.github.kubeharness.faults.Watches;
import java.util.List;
import java.util.SplittableRandom;

/** {@link Watches} of a {@link FaultProxy}'s watch gate, for all namespaces or scoped to one. */
final class ProxyWatches implements Watches {

  private final LazyFaultProxy proxy;
  private final String namespace;
  private final long seed;
  // One stream of choices per scope: replaying the seed replays each choice in turn.
  private final SplittableRandom random;

  ProxyWatches(LazyFaultProxy proxy, String namespace, long seed) {
    this.proxy = proxy;
    this.namespace = namespace;
    this.seed = seed;
    this.random = new SplittableRandom(seed);
  }

  @Override
  public HeldEvents hold(String resource) {
    return hold(resource, null);
  }

  @Override
  public HeldEvents hold(String resource, String name) {
    if (resource == null || resource.isBlank() || resource.contains("/")) {
      throw new IllegalArgumentException(
          "hold(\""
              + resource
              + "\"): name a resource by its plural, as in the API's paths (\"configmaps\","
              + " \"guestbooks\"); watches carry no subresource");
    }
    WatchGate.Hold hold = gate().hold(namespace, resource, namespace, name);
    return new HeldEvents() {
      @Override
      public int count() {
        return hold.count();
      }

      @Override
      public void release() {
        hold.release();
      }

      @Override
      public String toString() {
        return hold.toString();
      }
    };
  }

  @Override
  public synchronized List<String> releaseAll() {
    return gate().interleave(namespace, random, seed);
  }

  @Override
  public int duplicateNewest(String resource) {
    return gate().duplicateNewest(namespace, resource);
  }

  @Override
  public int end(String resource) {
    return gate().end(namespace, resource);
  }

  @Override
  public long seed() {
    return seed;
  }

  void clear() {
    proxy.ifStarted().ifPresent(p -> p.watchGate().clear(namespace));
  }

  private WatchGate gate() {
    return proxy.get().watchGate();
  }
}
