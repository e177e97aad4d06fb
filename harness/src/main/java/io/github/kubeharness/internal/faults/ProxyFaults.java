package io.github.kubeharness.internal.faults;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.faults.InjectedFault;
import io.github.kubeharness.faults.Watches;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/** {@link Faults} of a {@link FaultProxy}, for all namespaces or scoped to one. */
public final class ProxyFaults implements Faults {

  private final LazyFaultProxy proxy;
  private final Consumer<Duration> apiServerDown;
  private final String namespace;
  private final Instant since;
  private final ProxyWatches watches;
  private final AtomicInteger rulesAdded = new AtomicInteger();

  /**
   * @param apiServerDown stops the apiserver behind the proxy for the given time and starts it
   *     again
   */
  public ProxyFaults(LazyFaultProxy proxy, Consumer<Duration> apiServerDown) {
    this(proxy, apiServerDown, null, Instant.MIN, new SplittableRandom().nextLong());
  }

  private ProxyFaults(
      LazyFaultProxy proxy,
      Consumer<Duration> apiServerDown,
      String namespace,
      Instant since,
      long seed) {
    this.proxy = proxy;
    this.apiServerDown = apiServerDown;
    this.namespace = namespace;
    this.since = since;
    this.watches = new ProxyWatches(proxy, namespace, seed);
  }

  @Override
  public int dropWatches() {
    return proxy.get().dropWatches(namespace);
  }

  @Override
  public void apiServerDown(Duration downtime) {
    if (downtime.isNegative()) {
      throw new IllegalArgumentException("apiServerDown(" + downtime + "): give 0 or more");
    }
    proxy.get().note("apiserver down for " + downtime.toMillis() + " ms");
    apiServerDown.accept(downtime);
    proxy.get().note("apiserver up again");
  }

  @Override
  public InjectedFault respond(FaultRule rule) {
    if (rule.action().isEmpty()) {
      throw new IllegalArgumentException(
          "FaultRule "
              + rule
              + " has no response: finish it with conflict(), throttle(retryAfter),"
              + " serverError(), unavailable(), delay(latency) or stale()");
    }
    FaultRule scoped =
        namespace != null && rule.namespace().isEmpty() ? rule.namespace(namespace) : rule;
    // Probabilities draw from the scope's seed too: a replay strikes the same requests.
    return proxy.get().add(scoped, namespace, watches.seed() + rulesAdded.incrementAndGet());
  }

  @Override
  public void clear() {
    proxy.ifStarted().ifPresent(p -> p.clear(namespace));
    watches.clear();
  }

  /**
   * What the controllers did in this scope's namespace through the proxy, counted (starts the proxy
   * if it was not).
   */
  public TrafficTally traffic() {
    return proxy.get().traffic().of(Objects.requireNonNull(namespace, "a scoped view's"));
  }

  /** Drops the counts of this scope's namespace: its test is over. */
  public void forgetTraffic() {
    proxy.ifStarted().ifPresent(p -> p.traffic().forget(namespace));
  }

  @Override
  public Watches watches() {
    return watches;
  }

  /** Since this view was made: a test's scoped view logs what happened during the test. */
  @Override
  public List<String> log() {
    return logSince(since);
  }

  /** The log lines since {@code since}, for a failure report; none if the proxy never ran. */
  public List<String> logSince(Instant since) {
    return proxy.ifStarted().map(p -> p.log(since)).orElse(List.of());
  }

  @Override
  public Config route(Config config) {
    return new ConfigBuilder(config).withMasterUrl(proxy.get().url()).build();
  }

  @Override
  public String proxyUrl() {
    return proxy.get().url();
  }

  @Override
  public Faults inNamespace(String namespace) {
    return scoped(namespace, Instant.now(), watches.seed());
  }

  /**
   * A test's view: its namespace, its log from when the test's scope opened, and the seed of its
   * random choices.
   */
  public ProxyFaults scoped(String namespace, Instant since, long seed) {
    return scoped(namespace, since, seed, UnaryOperator.identity());
  }

  /**
   * {@link #scoped(String, Instant, long)} whose {@link #apiServerDown} goes through {@code guard}
   * (the JUnit extension's: it waits until no other test uses the API server).
   */
  public ProxyFaults scoped(
      String namespace, Instant since, long seed, UnaryOperator<Consumer<Duration>> guard) {
    return new ProxyFaults(
        proxy, guard.apply(apiServerDown), Objects.requireNonNull(namespace), since, seed);
  }

  /** Whether a line of {@link #log()} is about the delivery of watch events (the schedule). */
  public static boolean aboutWatchDelivery(String line) {
    return WatchGate.WORDS.stream().anyMatch(word -> line.contains("  " + word + " "));
  }
}
