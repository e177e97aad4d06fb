package io.github.kubeharness.internal.shared;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.backend.Backends;
import io.github.kubeharness.internal.backend.HarnessControlPlane;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
  public static final class Lease implements AutoCloseable {
    private final Entry entry;
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
     * asks, shared by all holders and closed before the control plane stops.
     */
    public <T extends AutoCloseable> T attachment(
        Class<T> type, Function<HarnessControlPlane, T> make) {
      return entry.attachment(type, make);
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        release(entry);
      }
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
    private final Map<Class<?>, AutoCloseable> attachments = new LinkedHashMap<>();

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

    synchronized <T extends AutoCloseable> T attachment(
        Class<T> type, Function<HarnessControlPlane, T> make) {
      HarnessControlPlane started = start();
      AutoCloseable held = attachments.get(type);
      if (held == null) {
        held = make.apply(started);
        attachments.put(type, held);
      }
      return type.cast(held);
    }

    void close() {
      List<AutoCloseable> toClose;
      boolean started;
      synchronized (this) {
        toClose = new ArrayList<>(attachments.values());
        attachments.clear();
        // One made but never started (a class that failed first) has nothing to stop.
        started = attempted;
      }
      RuntimeException failure = null;
      try {
        // Last made, first closed: a later attachment may use an earlier one.
        for (int i = toClose.size() - 1; i >= 0; i--) {
          try {
            toClose.get(i).close();
          } catch (Exception e) {
            failure = failure == null ? asRuntime(e) : addTo(failure, e);
          }
        }
      } finally {
        if (started && controlPlane != null) {
          try {
            controlPlane.stop();
          } catch (RuntimeException e) {
            failure = failure == null ? e : addTo(failure, e);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
    }

    private void stopQuietly(RuntimeException cause) {
      try {
        controlPlane.stop();
      } catch (RuntimeException e) {
        cause.addSuppressed(e);
      }
    }

    private static RuntimeException asRuntime(Exception e) {
      return e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
    }

    private static RuntimeException addTo(RuntimeException failure, Exception e) {
      failure.addSuppressed(e);
      return failure;
    }
  }
}
