package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An assertion that one Kubernetes object keeps a state for a while: the Java counterpart of
 * Gomega's {@code Consistently}, for "the controller leaves this alone" tests. Get one from {@link
 * KubeAssertions#consistently(Resource)}.
 *
 * <pre>{@code
 * consistently(client.configMaps().withName("x")).during(Duration.ofSeconds(2)).doesNotExist();
 * }</pre>
 *
 * <p>The check runs on every state the watch delivers, the initial one included, so a change that
 * is undone a moment later still fails the assertion; polling could miss it. The {@link
 * AssertionError} names when the state broke, shows the object at that point and the changes seen;
 * its cause is the failed check's own {@link AssertionError}.
 *
 * @param <T> the object's type
 */
public final class ConsistentlyAssert<T extends HasMetadata> {

  /** How long the state must hold unless {@link #during(Duration)} says otherwise: 2 s. */
  public static final Duration DEFAULT_DURATION = Duration.ofSeconds(2);

  private final Resource<T> resource;
  private final Duration duration;

  ConsistentlyAssert(Resource<T> resource, Duration duration) {
    this.resource = Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("duration must be positive, was " + duration);
    }
    this.duration = duration;
  }

  /** This assertion over another duration (the default is {@link #DEFAULT_DURATION}). */
  public ConsistentlyAssert<T> during(Duration duration) {
    return new ConsistentlyAssert<>(resource, duration);
  }

  /** Verifies that the object exists throughout; returns it as last observed. */
  public T exists() {
    return hold(Expectation.toExist());
  }

  /**
   * Verifies that the object exists and {@code requirements} accepts every state of it throughout;
   * returns the object as last observed.
   */
  public T satisfies(Consumer<? super T> requirements) {
    return hold(Expectation.toSatisfy(requirements));
  }

  /**
   * Verifies that {@code status.conditions} keeps a condition of {@code type} with {@code status}
   * throughout; returns the object as last observed.
   */
  public T hasCondition(String type, String status) {
    return hold(Expectation.toHaveCondition(type, status, null));
  }

  /**
   * Verifies that {@code status.conditions} keeps a condition of {@code type} with {@code status}
   * and {@code reason} throughout; returns the object as last observed.
   */
  public T hasCondition(String type, String status, String reason) {
    return hold(Expectation.toHaveCondition(type, status, Objects.requireNonNull(reason)));
  }

  /** Verifies that the object does not exist at any point throughout. */
  public void doesNotExist() {
    hold(Expectation.toBeAbsent("not to exist"));
  }

  private T hold(Expectation<T> expectation) {
    long start = System.nanoTime();
    long end = start + duration.toNanos();
    try (ObjectWatch<T> watch = ObjectWatch.open(resource, start, duration)) {
      Observation<T> last = null;
      int checked = 0;
      while (true) {
        List<Observation<T>> observations = watch.observations();
        for (; checked < observations.size(); checked++) {
          Observation<T> observation = observations.get(checked);
          // The initial state is always checked, even when starting the watch took longer than
          // the whole duration; later states count only while the duration lasts.
          if (checked > 0 && observation.elapsed().compareTo(duration) > 0) {
            return last.current();
          }
          try {
            expectation.verify(watch.target(), observation.current());
          } catch (AssertionError why) {
            throw new AssertionError(
                ShouldEventually.shouldConsistently(
                    watch.target(),
                    expectation.description(),
                    duration,
                    observation,
                    why,
                    watch.observations()),
                why);
          }
          last = observation;
        }
        if (System.nanoTime() - end >= 0) {
          return last.current();
        }
        // Woken by the next observation or at the end: no polling, no fixed sleep.
        watch.awaitObservationsBeyond(checked, end);
      }
    }
  }
}
