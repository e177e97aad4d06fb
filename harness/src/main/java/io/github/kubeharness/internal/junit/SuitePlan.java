package io.github.kubeharness.internal.junit;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.shared.ControlPlaneKey;
import io.github.kubeharness.internal.shared.RunningControlPlanes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Supplier;

/**
 * What the test classes of one launcher run still need: the control planes each planned class will
 * use (predicted from its configuration before the first class starts, added to when a class uses
 * one) and which classes have finished. When a class finishes and no class still to run needs a
 * control plane, the run lets go of it at once ({@link #finished}) instead of at the run's end: the
 * registry then stops it, unless a Spring context or a Quarkus test holds it too.
 *
 * <p>Only ever too careful: a class whose needs could not be predicted keeps every control plane
 * until it finishes; a class the plan does not know (run outside any plan this listener saw) is
 * never tracked, so its control planes stop at the run's end as before. A wrong prediction makes a
 * later class start a control plane anew: slower, never wrong.
 */
public final class SuitePlan {

  // The launcher runs under way in this JVM, newest last (a test may run a launcher of its own).
  private static final Deque<SuitePlan> RUNS = new ConcurrentLinkedDeque<>();

  private final Map<String, Planned> classes = new LinkedHashMap<>();
  // Per control plane, how this run lets go of it: store key (or "early") -> what takes the hold
  // out of the run (under the plan's lock, so that no class finds it afterwards) and returns it
  // to be closed (outside the lock: stopping takes a while).
  private final Map<ControlPlaneKey, Map<String, Supplier<AutoCloseable>>> releases =
      new LinkedHashMap<>();

  /** One class of the plan: its name, and the control planes it may use (null: unknown). */
  private static final class Planned {
    private final String className;
    private Set<ControlPlaneKey> keys;
    private boolean finished;

    Planned(String className, Set<ControlPlaneKey> keys) {
      this.className = className;
      this.keys = keys == null ? null : new HashSet<>(keys);
    }
  }

  private SuitePlan() {}

  /**
   * The plan of a run that starts now: per class container (by unique id), its class name and the
   * control planes it may use, null where that could not be predicted.
   */
  public static SuitePlan begin(Map<String, Map.Entry<String, Set<ControlPlaneKey>>> planned) {
    SuitePlan plan = new SuitePlan();
    planned.forEach(
        (id, needs) -> plan.classes.put(id, new Planned(needs.getKey(), needs.getValue())));
    RUNS.add(plan);
    return plan;
  }

  /** The run is over: what it still holds is its root store's (and the early start's) to close. */
  public void end() {
    RUNS.remove(this);
    List<AutoCloseable> early = new ArrayList<>();
    synchronized (this) {
      for (Map<String, Supplier<AutoCloseable>> held : releases.values()) {
        Supplier<AutoCloseable> r = held.remove(EARLY);
        if (r != null) {
          early.add(r.get());
        }
      }
    }
    RunningControlPlanes.closeInOrder(early);
  }

  private static final String EARLY = "early";

  /** Lets go of {@code key} with the other holds of this run, or at {@link #end}. */
  public synchronized void holdEarly(ControlPlaneKey key, AutoCloseable hold) {
    releases.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(EARLY, () -> hold);
  }

  /**
   * {@code testClass} is about to use {@code key}, held in its run's root store under {@code
   * storeKey}; {@code release} takes it out of the store and returns it, to be closed. Nothing
   * happens for a class that no plan under way knows.
   */
  static void using(
      Class<?> testClass, ControlPlaneKey key, String storeKey, Supplier<AutoCloseable> release) {
    planOf(testClass).ifPresent(plan -> plan.use(testClass.getName(), key, storeKey, release));
  }

  /**
   * The control planes a class of {@code config} may use: each version its tests run on (its
   * matrix's and, unless it declares a matrix, its one version's).
   */
  public static Set<ControlPlaneKey> keysOf(ExtensionConfig config) {
    Set<ControlPlaneKey> keys = new LinkedHashSet<>();
    if (!config.matrixDeclared()) {
      keys.add(ControlPlaneKey.of(config.controlPlane()));
    }
    if (!config.matrix().isEmpty()) {
      for (MatrixVersion v : MatrixVersion.of(config)) {
        if (v.failure() == null) {
          keys.add(ControlPlaneKey.of(config.controlPlane(v.version())));
        }
      }
    }
    return keys;
  }

  /**
   * The control plane a class of {@code config} starts first, as its first callback would: its one
   * version's, or its matrix's first. Empty for a class with further clusters, which start beside
   * the first as it starts.
   */
  public static Optional<ControlPlaneOptions> firstStart(ExtensionConfig config) {
    if (!config.clusters().others().isEmpty()) {
      return Optional.empty();
    }
    if (config.matrix().isEmpty()) {
      return Optional.of(config.controlPlane());
    }
    return MatrixVersion.of(config).stream()
        .filter(v -> v.failure() == null)
        .findFirst()
        .map(v -> config.controlPlane(v.version()));
  }

  private static Optional<SuitePlan> planOf(Class<?> testClass) {
    List<SuitePlan> newestFirst = new ArrayList<>(RUNS);
    for (int i = newestFirst.size() - 1; i >= 0; i--) {
      if (newestFirst.get(i).runs(testClass.getName())) {
        return Optional.of(newestFirst.get(i));
      }
    }
    return Optional.empty();
  }

  private synchronized boolean runs(String className) {
    return classes.values().stream().anyMatch(p -> !p.finished && p.className.equals(className));
  }

  private synchronized void use(
      String className, ControlPlaneKey key, String storeKey, Supplier<AutoCloseable> r) {
    for (Planned p : classes.values()) {
      if (!p.finished && p.className.equals(className) && p.keys != null) {
        p.keys.add(key);
      }
    }
    releases.computeIfAbsent(key, k -> new LinkedHashMap<>()).putIfAbsent(storeKey, r);
  }

  /**
   * The class containers {@code ids} have finished (or were skipped): each control plane that no
   * unfinished class needs is let go of now, the further clusters before the first.
   */
  public void finished(Collection<String> ids) {
    List<AutoCloseable> unused = new ArrayList<>();
    synchronized (this) {
      for (String id : ids) {
        Planned p = classes.get(id);
        if (p != null) {
          p.finished = true;
        }
      }
      List<Planned> remaining = classes.values().stream().filter(p -> !p.finished).toList();
      if (remaining.stream().anyMatch(p -> p.keys == null)) {
        return; // a class still to run might need any of them
      }
      for (ControlPlaneKey key : new ArrayList<>(releases.keySet())) {
        if (remaining.stream().noneMatch(p -> p.keys.contains(key))) {
          System.err.println(
              "[kube-harness] no test class still to run in this run uses the shared control"
                  + " plane of Kubernetes "
                  + key.kubernetesVersion()
                  + " ("
                  + key.profile().settingValue()
                  + "): letting go of it now");
          List<Supplier<AutoCloseable>> held = new ArrayList<>(releases.remove(key).values());
          for (int i = held.size() - 1; i >= 0; i--) {
            AutoCloseable taken = held.get(i).get();
            if (taken != null) {
              unused.add(taken);
            }
          }
        }
      }
    }
    // Outside the plan's lock: stopping takes a while, and other classes may run meanwhile.
    RunningControlPlanes.closeInOrder(unused);
  }
}
