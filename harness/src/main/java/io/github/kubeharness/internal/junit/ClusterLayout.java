package io.github.kubeharness.internal.junit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * The clusters a {@code @ControllerTest} class asks for and the controllers placed on each: empty
 * {@link #names()} is the one unnamed cluster every class had before {@code clusters}; otherwise
 * the first name is the default cluster, where the class's top-level reconcilers and controllers
 * run.
 *
 * @param names the cluster names in declaration order; empty: one unnamed cluster
 * @param placements the reconcilers and controllers of each further cluster, by name
 * @param ownEtcd whether each further cluster gets an etcd of its own on the local backend ({@link
 *     io.github.kubeharness.Settings#CLUSTERS_ETCD}); the other backends always make whole control
 *     planes
 */
public record ClusterLayout(
    List<String> names, Map<String, Placement> placements, boolean ownEtcd) {

  /** The reconcilers and controllers that run on one cluster. */
  public record Placement(List<Class<?>> reconcilers, List<Class<?>> controllers) {

    /** Nothing runs there. */
    static final Placement NONE = new Placement(List.of(), List.of());

    public Placement {
      reconcilers = List.copyOf(reconcilers);
      controllers = List.copyOf(controllers);
    }

    List<Class<?>> all() {
      List<Class<?>> all = new ArrayList<>(reconcilers);
      all.addAll(controllers);
      return all;
    }
  }

  public ClusterLayout {
    names = List.copyOf(names);
    placements = Map.copyOf(placements);
  }

  /**
   * The layout, checked: the names are lower-case DNS labels and distinct (they become etcd key
   * prefixes and report directories), each placement names a declared cluster other than the first;
   * {@code where} names the class in the error.
   */
  public static ClusterLayout of(
      List<String> names, Map<String, Placement> placements, boolean ownEtcd, String where) {
    for (String name : names) {
      if (!name.matches("[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?")) {
        throw new ExtensionConfigurationException(
            where
                + ": clusters entry '"
                + name
                + "' is not a lower-case DNS label of at most 40 characters (a-z, 0-9, '-'): it"
                + " names the cluster's etcd key prefix and report directory. Rename it, e.g."
                + " \"edge-1\".");
      }
    }
    if (names.stream().distinct().count() != names.size()) {
      throw new ExtensionConfigurationException(
          where
              + ": clusters "
              + names
              + " names a cluster twice: give each cluster its own name.");
    }
    for (String placed : placements.keySet()) {
      if (!names.contains(placed)) {
        throw new ExtensionConfigurationException(
            where
                + ": @ClusterControllers(cluster = \""
                + placed
                + "\") names no cluster of @ControllerTest(clusters = "
                + names
                + "): use one of those names"
                + (names.isEmpty() ? ", after declaring the clusters" : "")
                + ".");
      }
      if (placed.equals(names.get(0))) {
        throw new ExtensionConfigurationException(
            where
                + ": @ClusterControllers(cluster = \""
                + placed
                + "\") names the first (default) cluster, where @ControllerTest's own"
                + " reconcilers and controllers run: list them there instead.");
      }
    }
    return new ClusterLayout(names, placements, ownEtcd);
  }

  /** Whether the class asks for several clusters (or one named one). */
  public boolean named() {
    return !names.isEmpty();
  }

  /** The default cluster's name; null for the one unnamed cluster. */
  String first() {
    return names.isEmpty() ? null : names.get(0);
  }

  /** The further clusters' names, in declaration order. */
  List<String> others() {
    return names.isEmpty() ? List.of() : names.subList(1, names.size());
  }

  /** What runs on further cluster {@code name}. */
  Placement placement(String name) {
    return placements.getOrDefault(name, Placement.NONE);
  }
}
