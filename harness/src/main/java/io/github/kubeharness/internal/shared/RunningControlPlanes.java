package io.github.kubeharness.internal.shared;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.backend.Backends;
import io.github.kubeharness.internal.backend.HarnessControlPlane;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The control planes of this JVM, one per {@link ControlPlaneKey}, whoever asks for them: the JUnit
 * extension holds one for a run (its root store releases it at the end), a Spring context or a
 * Quarkus test resource for the rest of the JVM's life. So a JVM that runs a {@code
 * {@literal @}ControllerTest} and a Spring test on equal options starts one control plane.
 *
 * <p>A control plane is made (not started) with the first {@link #lease}, started by the first
 * {@link Lease#started()}, and stopped when its last lease is closed. What nobody releases stops
 * when the JVM exits: every control plane registers itself with the one JVM hook ({@code
 * ShutdownHooks}), and its processes and containers die with the JVM even on {@code kill -9} (the
 * watchdog). A failed start is the entry's for as long as it is held: each holder gets that failure
 * at once instead of minutes of trying again; once every holder let go, the next asks anew.
 */
public final class RunningControlPlanes {

  private static final Map<ControlPlaneKey, Entry> RUNNING = new HashMap<>();

  private RunningControlPlanes() {}

  /** A hold on the control plane of {@code options}, made now if this JVM has none yet. */
  public static Lease lease(ControlPlaneOptions options) {
    // The one place the registry makes a control plane (the front door's call, once).
    return lease(ControlPlaneKey.of(options), key -> Backends.newControlPlane(options));
  }

  /**
   * A hold on cluster {@code name} beside {@code first}'s control plane (made, maybe not started:
   * on the local backend it may start while the first does), made now if this JVM has none yet.
   * {@code where} names the asker in a refusal.
   */
  public static Lease leaseBeside(Lease first, String name, boolean ownEtcd, String where) {
    return lease(
        first.entry.key.beside(name, ownEtcd),
        key -> Backends.newClusterBeside(first.made(), name, ownEtcd, where));
  }

  private static synchronized Lease lease(
      ControlPlaneKey key, Function<ControlPlaneKey, HarnessControlPlane> make) {
    Entry entry = RUNNING.computeIfAbsent(key, k -> new Entry(k, make));
    entry.holders++;
    return new Lease(entry);
  }

  /** How many control planes this JVM holds (made, started or failed). */
  public static synchronized int count() {
    return RUNNING.size();
  }

  /** How many holds there are on the control plane of {@code options} (0: this JVM has none). */
  public static synchronized int holders(ControlPlaneOptions options) {
    Entry entry = RUNNING.get(ControlPlaneKey.of(options));
    return entry == null ? 0 : entry.holders;
  }

  private static void release(Entry entry) {
    synchronized (RunningControlPlanes.class) {
      if (--entry.holders > 0) {
        return;
      }
      RUNNING.remove(entry.key);
    }
    // Outside the registry's lock: stopping takes seconds, and other keys may be asked meanwhile.
    entry.close();
  }

  /** One holder's hold on a control plane; closing it lets go (the last one stops it). */
  /**
   * Closes {@code holds} (leases and attachments of this registry) in the order given, every one
   * even when an earlier one fails; then throws the first failure, later ones suppressed in it.
   */
  public static void closeInOrder(List<? extends AutoCloseable> holds) {
    RuntimeException failure = null;
    for (AutoCloseable hold : holds) {
      try {
        hold.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  public static final class Lease implements AutoCloseable {
    private final Entry entry;
    // The kinds of attachment this lease uses: each closes when its last user lets go.
    private final Set<Class<?>> attached = new HashSet<>();
    private boolean closed;

    private Lease(Entry entry) {
      this.entry = entry;
    }

    /** The control plane, made but maybe not started; why it could not be made, thrown. */
    public HarnessControlPlane made() {
      if (entry.madeFailure != null) {
        throw entry.madeFailure;
      }
      return entry.controlPlane;
    }

    /** The control plane, started by the first holder that asks; its start's failure, thrown. */
    public HarnessControlPlane started() {
      return entry.start();
    }

    /**
     * What a kind of holder keeps beside the control plane (the JUnit extension's clients and
     * webhook server), made by {@code make} on the started control plane by the first holder that
     * asks, shared by the holders that ask for it and closed when the last of them lets go (so a
     * JUnit run's clients close at its end, even while a Spring context keeps the control plane).
     */
    public synchronized <T extends AutoCloseable> T attachment(
        Class<T> type, Function<HarnessControlPlane, T> make) {
      T held = entry.attach(type, make, !attached.contains(type));
      attached.add(type);
      return held;
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        try {
          entry.detach(attached);
        } finally {
          release(entry);
        }
      }
    }
  }

  /** An attachment and how many leases use it. */
  private static final class Attached {
    private final AutoCloseable value;
    private int users;

    Attached(AutoCloseable value) {
      this.value = value;
    }
  }

  private static final class Entry {
    private final ControlPlaneKey key;
    private final HarnessControlPlane controlPlane;
    private final RuntimeException madeFailure;
    // Guarded by the registry's lock.
    private int holders;
    // Guarded by this entry.
    private boolean attempted;
    private RuntimeException startFailure;
    private final Map<Class<?>, Attached> attachments = new LinkedHashMap<>();

    Entry(ControlPlaneKey key, Function<ControlPlaneKey, HarnessControlPlane> make) {
      this.key = key;
      HarnessControlPlane made = null;
      RuntimeException failure = null;
      try {
        made = make.apply(key);
      } catch (RuntimeException e) {
        failure = e;
      }
      this.controlPlane = made;
      this.madeFailure = failure;
    }

    synchronized HarnessControlPlane start() {
      if (madeFailure != null) {
        throw madeFailure;
      }
      if (!attempted) {
        attempted = true;
        try {
          controlPlane.start();
        } catch (RuntimeException e) {
          startFailure = e;
          stopQuietly(e);
        }
      }
      if (startFailure != null) {
        throw startFailure;
      }
      return controlPlane;
    }

    synchronized <T extends AutoCloseable> T attach(
        Class<T> type, Function<HarnessControlPlane, T> make, boolean newUser) {
      HarnessControlPlane started = start();
      Attached held = attachments.get(type);
      if (held == null) {
        held = new Attached(make.apply(started));
        attachments.put(type, held);
      }
      if (newUser) {
        held.users++;
      }
      return type.cast(held.value);
    }

    /** One user fewer of each of {@code types}; those that had their last closed. */
    void detach(Set<Class<?>> types) {
      List<AutoCloseable> unused = new ArrayList<>();
      synchronized (this) {
        for (Class<?> type : types) {
          Attached held = attachments.get(type);
          if (held != null && --held.users == 0) {
            attachments.remove(type);
            unused.add(held.value);
          }
        }
      }
      closeAll(unused);
    }

    void close() {
      List<AutoCloseable> toClose;
      boolean started;
      synchronized (this) {
        toClose = new ArrayList<>(attachments.values().stream().map(a -> a.value).toList());
        attachments.clear();
        // One made but never started (a class that failed first) has nothing to stop.
        started = attempted;
      }
      try {
        closeAll(toClose);
      } finally {
        if (started && controlPlane != null) {
          controlPlane.stop();
        }
      }
    }

    /** Last made, first closed: a later attachment may use an earlier one. */
    private static void closeAll(List<AutoCloseable> toClose) {
      List<AutoCloseable> lastFirst = new ArrayList<>(toClose);
      Collections.reverse(lastFirst);
      closeInOrder(lastFirst);
    }

    private void stopQuietly(RuntimeException cause) {
      try {
        controlPlane.stop();
      } catch (RuntimeException e) {
        cause.addSuppressed(e);
      }
    }
  }
}
