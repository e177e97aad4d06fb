package io.github.kubeharness.faults;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which requests of the controllers to disturb, and how: built from {@link #requests()}, narrowed
 * by verb, resource, namespace and name, limited by count or probability, and finished by one
 * response ({@link #conflict()}, {@link #throttle(Duration)}, {@link #serverError()}, {@link
 * #unavailable()}), a {@link #delay(Duration)} or {@link #stale()} answers. Immutable: each method
 * returns a new rule.
 *
 * <pre>{@code
 * FaultRule.requests().verbs("update", "patch").resource("guestbooks/status").times(2).conflict()
 * FaultRule.requests().probability(0.3).throttle(Duration.ofSeconds(1))
 * FaultRule.requests().verbs("list").resource("deployments").delay(Duration.ofMillis(800))
 * }</pre>
 *
 * <p>Verbs are Kubernetes' request verbs: {@code get, list, watch, create, update, patch, delete,
 * deletecollection}. A resource is the plural name ({@code deployments}), with a subresource after
 * a slash ({@code guestbooks/status}).
 */
public final class FaultRule {

  /** What a matching request gets. */
  public enum Action {
    /** 409 Conflict, as for a stale resourceVersion. */
    CONFLICT(409, "Conflict"),
    /** 429 Too Many Requests with a Retry-After header, as API Priority and Fairness answers. */
    THROTTLE(429, "TooManyRequests"),
    /** 500 Internal Server Error. */
    SERVER_ERROR(500, "InternalError"),
    /** 503 Service Unavailable. */
    UNAVAILABLE(503, "ServiceUnavailable"),
    /** Passed on to the API server after a delay. */
    DELAY(0, ""),
    /**
     * A read that may be served from the API server's watch cache answered from an earlier
     * snapshot, as a lagging cache answers.
     */
    STALE(0, "");

    private final int status;
    private final String reason;

    Action(int status, String reason) {
      this.status = status;
      this.reason = reason;
    }

    /** The HTTP status the proxy answers with (0 for {@link #DELAY} and {@link #STALE}). */
    public int status() {
      return status;
    }

    /** The Kubernetes Status reason of the answer. */
    public String reason() {
      return reason;
    }
  }

  private static final Set<String> VERBS =
      Set.of("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection");

  private final Set<String> verbs;
  private final String resource;
  private final String namespace;
  private final String name;
  private final int times;
  private final double probability;
  private final Action action;
  private final Duration duration;

  private FaultRule(
      Set<String> verbs,
      String resource,
      String namespace,
      String name,
      int times,
      double probability,
      Action action,
      Duration duration) {
    this.verbs = verbs;
    this.resource = resource;
    this.namespace = namespace;
    this.name = name;
    this.times = times;
    this.probability = probability;
    this.action = action;
    this.duration = duration;
  }

  /** Every request of the controllers, without limit, and no response chosen yet. */
  public static FaultRule requests() {
    return new FaultRule(Set.of(), null, null, null, 0, 1.0, null, Duration.ZERO);
  }

  /** Only requests with one of these verbs. */
  public FaultRule verbs(String... verbs) {
    Set<String> chosen = Set.of(verbs);
    for (String verb : chosen) {
      if (!VERBS.contains(verb.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException(
            "Unknown verb '" + verb + "' in a FaultRule: use one of " + String.join(", ", VERBS));
      }
    }
    return new FaultRule(
        Set.copyOf(chosen.stream().map(v -> v.toLowerCase(Locale.ROOT)).toList()),
        resource,
        namespace,
        name,
        times,
        probability,
        action,
        duration);
  }

  /** Only requests for this resource (plural, e.g. {@code deployments} or {@code foos/status}). */
  public FaultRule resource(String resource) {
    if (resource.isBlank() || resource.contains(".") && !resource.contains("/")) {
      throw new IllegalArgumentException(
          "FaultRule resource '"
              + resource
              + "': name the plural resource without its group (deployments, guestbooks,"
              + " guestbooks/status)");
    }
    return new FaultRule(verbs, resource, namespace, name, times, probability, action, duration);
  }

  /** Only requests in this namespace (a scoped {@link Faults} sets its own by default). */
  public FaultRule namespace(String namespace) {
    return new FaultRule(
        verbs,
        resource,
        Objects.requireNonNull(namespace),
        name,
        times,
        probability,
        action,
        duration);
  }

  /** Only requests for the object of this name. */
  public FaultRule name(String name) {
    return new FaultRule(
        verbs,
        resource,
        namespace,
        Objects.requireNonNull(name),
        times,
        probability,
        action,
        duration);
  }

  /** Strikes only the first {@code count} matching requests. */
  public FaultRule times(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("FaultRule.times(" + count + "): give 1 or more");
    }
    return new FaultRule(verbs, resource, namespace, name, count, probability, action, duration);
  }

  /** Strikes each matching request with this probability (0 &lt; p ≤ 1). */
  public FaultRule probability(double probability) {
    if (!(probability > 0 && probability <= 1)) {
      throw new IllegalArgumentException(
          "FaultRule.probability(" + probability + "): give a value above 0 and at most 1");
    }
    return new FaultRule(verbs, resource, namespace, name, times, probability, action, duration);
  }

  /** Answers 409 Conflict. */
  public FaultRule conflict() {
    return respond(Action.CONFLICT, Duration.ZERO);
  }

  /** Answers 429 Too Many Requests, asking the client to retry after {@code retryAfter}. */
  public FaultRule throttle(Duration retryAfter) {
    if (retryAfter.isNegative() || retryAfter.toSeconds() < 1) {
      throw new IllegalArgumentException(
          "FaultRule.throttle(" + retryAfter + "): Retry-After is whole seconds, 1 or more");
    }
    return respond(Action.THROTTLE, retryAfter);
  }

  /** Answers 500 Internal Server Error. */
  public FaultRule serverError() {
    return respond(Action.SERVER_ERROR, Duration.ZERO);
  }

  /** Answers 503 Service Unavailable. */
  public FaultRule unavailable() {
    return respond(Action.UNAVAILABLE, Duration.ZERO);
  }

  /** Passes matching requests on only after {@code latency}. */
  public FaultRule delay(Duration latency) {
    if (latency.isNegative() || latency.isZero()) {
      throw new IllegalArgumentException("FaultRule.delay(" + latency + "): give a positive delay");
    }
    return respond(Action.DELAY, latency);
  }

  /**
   * Answers the reads an API server may serve from its watch cache — {@code get} and {@code list}
   * with {@code resourceVersion=0}, or with {@code resourceVersionMatch=NotOlderThan} — with the
   * answer the first of them got after the rule was injected, as a watch cache that lags behind
   * etcd answers them. Reads with an empty resourceVersion pass on: the API server serves them
   * consistently, and so does the proxy. Limit it with {@link #times(int)} (the first read, the
   * snapshot, counts), or end the window with {@link InjectedFault#remove()}.
   */
  public FaultRule stale() {
    for (String verb : verbs) {
      if (!verb.equals("get") && !verb.equals("list")) {
        throw new IllegalArgumentException(
            "FaultRule.stale() for verb '"
                + verb
                + "': only get and list may be answered from a cache; remove the others from"
                + " verbs(...)");
      }
    }
    Set<String> reads = verbs.isEmpty() ? Set.of("get", "list") : verbs;
    return new FaultRule(
        reads, resource, namespace, name, times, probability, Action.STALE, Duration.ZERO);
  }

  private FaultRule respond(Action action, Duration duration) {
    return new FaultRule(verbs, resource, namespace, name, times, probability, action, duration);
  }

  public Set<String> verbs() {
    return verbs;
  }

  public Optional<String> resource() {
    return Optional.ofNullable(resource);
  }

  public Optional<String> namespace() {
    return Optional.ofNullable(namespace);
  }

  public Optional<String> name() {
    return Optional.ofNullable(name);
  }

  /** The most requests it strikes; 0 for no limit. */
  public int times() {
    return times;
  }

  public double probability() {
    return probability;
  }

  /** The response; empty until one is chosen (a rule without one cannot be injected). */
  public Optional<Action> action() {
    return Optional.ofNullable(action);
  }

  /** Retry-After for {@link Action#THROTTLE}, the latency for {@link Action#DELAY}. */
  public Duration duration() {
    return duration;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    text.append(action == null ? "(no response)" : describe(action, duration)).append(" for ");
    text.append(verbs.isEmpty() ? "any verb" : String.join("/", verbs.stream().sorted().toList()));
    text.append(" ").append(resource == null ? "any resource" : resource);
    if (namespace != null || name != null) {
      text.append(" ")
          .append(namespace == null ? "*" : namespace)
          .append("/")
          .append(name == null ? "*" : name);
    }
    if (times > 0) {
      text.append(", ").append(times).append(times == 1 ? " time" : " times");
    }
    if (probability < 1) {
      text.append(", probability ").append(probability);
    }
    return text.toString();
  }

  private static String describe(Action action, Duration duration) {
    return switch (action) {
      case DELAY -> "delay " + duration.toMillis() + " ms";
      case STALE -> "stale answers";
      case THROTTLE -> "429 (Retry-After " + duration.toSeconds() + " s)";
      default -> action.status() + " " + action.reason();
    };
  }
}
