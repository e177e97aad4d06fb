package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * An assertion that one Kubernetes object reaches a state within a timeout: the Java counterpart of
 * Gomega's {@code Eventually}. Get one from {@link KubeAssertions#eventually(Resource)}.
 *
 * <pre>{@code
 * ConfigMap cm = eventually(client.configMaps().withName("demo")).exists();
 * eventually(client.resources(Widget.class).withName("w")).hasCondition("Ready", "True");
 * }</pre>
 *
 * <p>The object is watched, not polled: each check runs against the latest state the watch
 * delivered, so checking costs no API call. When time runs out, the {@link AssertionError} tells
 * what was expected, why the last check failed, the object as last seen (YAML) and every change
 * seen while waiting; its cause is the last check's own {@link AssertionError}.
 *
 * @param <T> the object's type
 */
public final class EventuallyAssert<T extends HasMetadata> {

  // Checks read memory only, so polling often is cheap and keeps the wait close to the event.
  private static final Duration POLL_INTERVAL = Duration.ofMillis(10);

  private final Resource<T> resource;
  private final Duration timeout;

  EventuallyAssert(Resource<T> resource, Duration timeout) {
    this.resource = Objects.requireNonNull(resource, "resource");
    this.timeout = requirePositive(timeout);
  }

  /**
   * This assertion with another timeout (the default is {@link KubeAssertions#defaultTimeout()}).
   */
  public EventuallyAssert<T> within(Duration timeout) {
    return new EventuallyAssert<>(resource, timeout);
  }

  /** Waits until the object exists; returns it as last observed. */
  public T exists() {
    return await(Expectation.toExist());
  }

  /**
   * Waits until the object exists and {@code requirements} accepts it without throwing; returns the
   * object it accepted. Write {@code requirements} with AssertJ, e.g. {@code c ->
   * assertThat(c.getData()).containsEntry("k", "v")}; its last failure becomes the cause of the
   * timeout's error.
   */
  public T satisfies(Consumer<? super T> requirements) {
    return await(Expectation.toSatisfy(requirements));
  }

  /**
   * Waits until {@code status.conditions} holds a condition of {@code type} with {@code status};
   * returns the object that had it.
   */
  public T hasCondition(String type, String status) {
    return await(Expectation.toHaveCondition(type, status, null));
  }

  /**
   * Waits until {@code status.conditions} holds a condition of {@code type} with {@code status} and
   * {@code reason}; returns the object that had it.
   */
  public T hasCondition(String type, String status, String reason) {
    return await(Expectation.toHaveCondition(type, status, Objects.requireNonNull(reason)));
  }

  /**
   * Waits until the object has an owner reference to {@code owner} (uid, kind and name); returns
   * the object.
   *
   * @throws IllegalArgumentException at once when {@code owner} has no uid
   */
  public T isOwnedBy(HasMetadata owner) {
    return await(Expectation.toBeOwnedBy(owner));
  }

  /**
   * Waits until the object does not exist (passes at once when it never did). On timeout the
   * message tells whether deletion was requested and which finalizers it waits for.
   */
  public void isDeleted() {
    await(Expectation.toBeAbsent("to be deleted"));
  }

  private T await(Expectation<T> expectation) {
    long start = System.nanoTime();
    try (ObjectWatch<T> watch = ObjectWatch.open(resource, start, timeout)) {
      Attempt<T> last = new Attempt<>(expectation, watch);
      Duration remaining = timeout.minus(watch.elapsed());
      try {
        Awaitility.await()
            .pollInSameThread() // no extra thread, and the user's check runs on the test thread
            .dontCatchUncaughtExceptions() // catching would swap the JVM-wide default handler
            .pollDelay(Duration.ZERO)
            .pollInterval(POLL_INTERVAL)
            .atMost(remaining.compareTo(POLL_INTERVAL) < 0 ? POLL_INTERVAL : remaining)
            .untilAsserted(last::runOrThrow);
      } catch (ConditionTimeoutException e) {
        // A watch that took the whole timeout to start leaves no check run: run one now.
        if (last.observation == null && last.run()) {
          return last.observation.current();
        }
        throw new AssertionError(
            ShouldEventually.shouldEventually(
                watch.target(),
                expectation.description(),
                timeout,
                last.observation,
                last.failure,
                watch.observations()),
            last.failure);
      }
      return last.observation.current();
    }
  }

  private static Duration requirePositive(Duration duration) {
    Objects.requireNonNull(duration, "timeout");
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, was " + duration);
    }
    return duration;
  }

  /** The last check: the state it saw and, when it failed, why. */
  private static final class Attempt<T extends HasMetadata> {
    private final Expectation<T> expectation;
    private final ObjectWatch<T> watch;
    Observation<T> observation;
    AssertionError failure;

    Attempt(Expectation<T> expectation, ObjectWatch<T> watch) {
      this.expectation = expectation;
      this.watch = watch;
    }

    /** Checks the latest observation; true when it passed. */
    boolean run() {
      observation = watch.latest();
      try {
        expectation.verify(watch.target(), observation.current());
        failure = null;
        return true;
      } catch (AssertionError e) {
        failure = e;
        return false;
      }
    }

    void runOrThrow() {
      if (!run()) {
        throw failure;
      }
    }
  }
}
