package io.github.kubeharness;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The import cycles among classes, as {@code jdeps -verbose:class} would draw them with nested
 * classes folded into their top-level class: the strongly connected components (Tarjan's algorithm)
 * of more than one class. ArchUnit checks cycles between slices (packages), not between classes,
 * hence this.
 */
final class ClassCycles {

  private final Map<String, SortedSet<String>> edges = new TreeMap<>();
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, Integer> low = new HashMap<>();
  private final Deque<String> stack = new ArrayDeque<>();
  private final Set<String> onStack = new TreeSet<>();
  private final List<SortedSet<String>> cycles = new ArrayList<>();

  private ClassCycles(Map<String, SortedSet<String>> edges) {
    this.edges.putAll(edges);
  }

  /**
   * The cycles among {@code classes} whose names start with {@code prefix}, each a sorted set of
   * top-level class names with {@code prefix} taken off.
   */
  static List<SortedSet<String>> of(JavaClasses classes, String prefix) {
    Map<String, SortedSet<String>> edges = new TreeMap<>();
    for (JavaClass type : classes) {
      String from = topLevel(type, prefix);
      if (from == null) {
        continue;
      }
      SortedSet<String> targets = edges.computeIfAbsent(from, k -> new TreeSet<>());
      for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
        String to = topLevel(dependency.getTargetClass(), prefix);
        if (to != null && !to.equals(from)) {
          targets.add(to);
        }
      }
    }
    return new ClassCycles(edges).find();
  }

  /** Whether {@code cycle} holds classes of more than one package. */
  static boolean spansPackages(Set<String> cycle) {
    return cycle.stream().map(ClassCycles::packageOf).distinct().count() > 1;
  }

  private static String packageOf(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(0, dot);
  }

  // By name, as jdeps folds them: a dependency's target may be a class ArchUnit did not import.
  private static String topLevel(JavaClass type, String prefix) {
    String name = type.getBaseComponentType().getName();
    int nested = name.indexOf('$');
    String top = nested < 0 ? name : name.substring(0, nested);
    return top.startsWith(prefix) ? top.substring(prefix.length()) : null;
  }

  private List<SortedSet<String>> find() {
    for (String node : edges.keySet()) {
      if (!index.containsKey(node)) {
        connect(node);
      }
    }
    return cycles;
  }

  // Recursive: the graph is a few hundred classes deep at most.
  private void connect(String node) {
    index.put(node, index.size());
    low.put(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (String next : edges.getOrDefault(node, new TreeSet<>())) {
      if (!index.containsKey(next)) {
        connect(next);
        low.put(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.contains(next)) {
        low.put(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      SortedSet<String> component = new TreeSet<>();
      String member;
      do {
        member = stack.pop();
        onStack.remove(member);
        component.add(member);
      } while (!member.equals(node));
      if (component.size() > 1) {
        cycles.add(component);
      }
    }
  }
}
