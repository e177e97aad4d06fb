package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.assertions.ObjectView.Target;
import io.github.kubeharness.assertions.Observation.Change;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A watch on one named object that keeps every state it delivers in memory, so assertions check the
 * latest state (or each state in turn) without an API call per poll, and failure messages can tell
 * the story of what happened while waiting.
 *
 * <p>Backed by a fabric8 informer on the single object (a list and watch with a field selector on
 * its name), which re-lists and re-watches by itself when the watch drops. Close it: the informer
 * holds a watch connection on the API server until then.
 */
final class ObjectWatch<T extends HasMetadata> implements AutoCloseable {

  private static final Duration MIN_START_TIMEOUT = Duration.ofSeconds(10);

  private final long startNanos;
  private final Target target;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final List<Observation<T>> observations = new ArrayList<>();
  private SharedIndexInformer<T> informer;

  private ObjectWatch(Target target, long startNanos) {
    this.target = target;
    this.startNanos = startNanos;
  }

  /**
   * Starts watching {@code resource} and returns once its initial state (present or absent) is
   * known.
   *
   * @param startNanos {@link System#nanoTime()} when the assertion started; elapsed times count
   *     from it
   * @param wait how long the assertion waits or holds: the initial list and watch may take as long,
   *     and at least 10 s
   * @throws KubeHarnessException when the object cannot be listed or watched (kind not served, no
   *     permission, API server gone)
   */
  static <T extends HasMetadata> ObjectWatch<T> open(
      Resource<T> resource, long startNanos, Duration wait) {
    ObjectWatch<T> watch = new ObjectWatch<>(Target.of(resource), startNanos);
    try {
      watch.start(resource, wait.compareTo(MIN_START_TIMEOUT) > 0 ? wait : MIN_START_TIMEOUT);
      return watch;
    } catch (RuntimeException | Error e) {
      watch.close();
      throw e;
    }
  }

  private void start(Resource<T> resource, Duration startTimeout) {
    long deadline = System.nanoTime() + startTimeout.toNanos();
    try {
      // NB: runnableInformer + start() rather than inform(): inform() blocks without a bound.
      informer = resource.runnableInformer(0);
      informer.addEventHandler(new Handler());
      informer.start().toCompletableFuture().get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw cannotWatch(e.getCause() != null ? e.getCause() : e);
    } catch (TimeoutException | RuntimeException e) {
      throw cannotWatch(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw cannotWatch(e);
    }
    // The informer hands the initial list to its handlers before it reports started, so this
    // normally returns at once; the wait only covers a slow handler thread.
    if (!awaitObservationsBeyond(0, deadline)) {
      throw cannotWatch(new TimeoutException("no initial state within " + startTimeout));
    }
  }

  private KubeHarnessException cannotWatch(Throwable cause) {
    return new KubeHarnessException(
        "Could not watch "
            + target
            + ": "
            + cause
            + ". Check that its kind is served (for a custom resource: the CRD is installed and"
            + " Established) and that the client may list and watch it.",
        cause);
  }

  /** What the assertion is about, completed with whatever the watch has seen. */
  Target target() {
    lock.lock();
    try {
      Target completed = target;
      for (Observation<T> o : observations) {
        completed = completed.completedBy(o.object());
      }
      return completed;
    } finally {
      lock.unlock();
    }
  }

  /** Time since the assertion started. */
  Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  /** The newest observation; the watch always has one once opened. */
  Observation<T> latest() {
    lock.lock();
    try {
      return observations.get(observations.size() - 1);
    } finally {
      lock.unlock();
    }
  }

  /** Every observation so far, oldest first. */
  List<Observation<T>> observations() {
    lock.lock();
    try {
      return List.copyOf(observations);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until there are more than {@code known} observations or {@code deadlineNanos} (a {@link
   * System#nanoTime()} value) passes; true when there are.
   */
  boolean awaitObservationsBeyond(int known, long deadlineNanos) {
    lock.lock();
    try {
      long remaining = deadlineNanos - System.nanoTime();
      while (observations.size() <= known && remaining > 0) {
        remaining = changed.awaitNanos(remaining);
      }
      return observations.size() > known;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubeHarnessException("Interrupted while watching " + target, e);
    } finally {
      lock.unlock();
    }
  }

  /** Stops the informer and its watch connection. Idempotent. */
  @Override
  public void close() {
    SharedIndexInformer<T> running = informer;
    if (running != null) {
      running.stop();
    }
  }

  private void record(Change change, T object) {
    lock.lock();
    try {
      T previous = observations.isEmpty() ? null : latest().current();
      if (change == Change.MODIFIED
          && previous != null
          && Objects.equals(
              previous.getMetadata().getResourceVersion(),
              object.getMetadata().getResourceVersion())) {
        return; // a resync or re-list, not a change
      }
      List<String> paths =
          change == Change.MODIFIED ? ObjectDiff.changedPaths(previous, object) : List.of();
      observations.add(new Observation<>(elapsed(), change, object, paths));
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Turns informer callbacks into observations; they arrive one at a time, in order. */
  private final class Handler implements ResourceEventHandler<T> {

    @Override
    public void onNothing() {
      // The informer says this after an empty initial list (and after some re-lists): only the
      // first one tells us something, namely that the object did not exist at the start.
      lock.lock();
      try {
        if (observations.isEmpty()) {
          record(Change.INITIAL, null);
        }
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void onAdd(T object) {
      lock.lock();
      try {
        record(observations.isEmpty() ? Change.INITIAL : Change.ADDED, object);
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
      record(Change.MODIFIED, newObject);
    }

    @Override
    public void onDelete(T object, boolean finalStateUnknown) {
      record(Change.DELETED, object);
    }
  }
}
