package io.github.kubeharness.internal.faults;

import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.faults.InjectedFault;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/** A rule in force in the proxy: its number (for the log), its scope and how often it struck. */
final class ActiveRule implements InjectedFault {

  private final int number;
  private final FaultRule rule;
  private final String scope;
  private final FaultProxy proxy;
  private final AtomicInteger hits = new AtomicInteger();
  private final SplittableRandom random;

  /**
   * @param scope the namespace of the {@link io.github.kubeharness.faults.Faults} view that
   *     injected it (its rules end with it), or null
   */
  ActiveRule(int number, FaultRule rule, String scope, FaultProxy proxy, long seed) {
    this.number = number;
    this.rule = rule;
    this.scope = scope;
    this.proxy = proxy;
    this.random = new SplittableRandom(seed);
  }

  /** Whether this rule strikes {@code request}; counts the hit when it does. */
  synchronized boolean strikes(RequestInfo request) {
    if (!matches(request)) {
      return false;
    }
    if (rule.times() > 0 && hits.get() >= rule.times()) {
      return false;
    }
    if (rule.probability() < 1 && random.nextDouble() >= rule.probability()) {
      return false;
    }
    hits.incrementAndGet();
    return true;
  }

  private boolean matches(RequestInfo request) {
    // Stale answers only where the API server could give one: the reads its cache may serve.
    if (rule.action().orElse(null) == FaultRule.Action.STALE && !request.cacheable()) {
      return false;
    }
    return (rule.verbs().isEmpty() || rule.verbs().contains(request.verb()))
        && rule.resource().map(request.resource()::equals).orElse(!request.resource().isEmpty())
        && rule.namespace().map(request.namespace()::equals).orElse(true)
        && rule.name().map(request.name()::equals).orElse(true);
  }

  int number() {
    return number;
  }

  FaultRule rule() {
    return rule;
  }

  String scope() {
    return scope;
  }

  @Override
  public int hits() {
    return hits.get();
  }

  @Override
  public void remove() {
    proxy.remove(this);
  }

  @Override
  public String toString() {
    return "rule " + number + " (" + rule + ")";
  }
}
