package io.github.kubeharness.assertions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The field paths that differ between two observations of one object, for the change history of a
 * failure message: {@code data.k} (changed), {@code +status.conditions[Ready]} (added), {@code
 * -metadata.labels.tier} (removed).
 *
 * <p>Only what a controller author reasons about is compared: every top-level field but {@code
 * metadata}, and from {@code metadata} the labels, annotations, owner references, finalizers and
 * deletion timestamp. Bookkeeping that changes on every write ({@code resourceVersion}, {@code
 * generation}, {@code managedFields}) would drown the real changes, so it is left out.
 */
final class ObjectDiff {

  /** At most this many paths per history line; the rest are counted. */
  static final int MAX_PATHS = 8;

  private static final Set<String> SKIPPED_TOP_LEVEL = Set.of("apiVersion", "kind", "metadata");
  private static final List<String> COMPARED_METADATA =
      List.of(
          "labels",
          "annotations",
          "ownerReferences",
          "finalizers",
          "deletionTimestamp",
          "deletionGracePeriodSeconds");

  private ObjectDiff() {}

  /** The changed paths from {@code before} to {@code after}, capped at {@link #MAX_PATHS}. */
  static List<String> changedPaths(Object before, Object after) {
    JsonNode a = ObjectView.tree(before);
    JsonNode b = ObjectView.tree(after);
    List<String> paths = new ArrayList<>();
    Set<String> fields = new LinkedHashSet<>();
    a.fieldNames().forEachRemaining(fields::add);
    b.fieldNames().forEachRemaining(fields::add);
    fields.removeAll(SKIPPED_TOP_LEVEL);
    for (String field : fields) {
      diff(field, a.path(field), b.path(field), paths);
    }
    for (String field : COMPARED_METADATA) {
      diff(
          "metadata." + field,
          a.path("metadata").path(field),
          b.path("metadata").path(field),
          paths);
    }
    if (paths.size() > MAX_PATHS) {
      int more = paths.size() - MAX_PATHS;
      paths = new ArrayList<>(paths.subList(0, MAX_PATHS));
      paths.add("... " + more + " more");
    }
    return paths;
  }

  private static void diff(String path, JsonNode a, JsonNode b, List<String> out) {
    if (a.equals(b)) {
      return;
    }
    if (a.isMissingNode() || a.isNull()) {
      out.add("+" + path);
    } else if (b.isMissingNode() || b.isNull()) {
      out.add("-" + path);
    } else if (a.isObject() && b.isObject()) {
      Set<String> fields = new LinkedHashSet<>();
      a.fieldNames().forEachRemaining(fields::add);
      b.fieldNames().forEachRemaining(fields::add);
      for (String field : fields) {
        diff(path + "." + field, a.path(field), b.path(field), out);
      }
    } else if (a.isArray() && b.isArray()) {
      Map<String, JsonNode> left = elements(a);
      Map<String, JsonNode> right = elements(b);
      Set<String> keys = new LinkedHashSet<>(left.keySet());
      keys.addAll(right.keySet());
      for (String key : keys) {
        diff(
            path + "[" + key + "]",
            left.getOrDefault(key, MissingNode.getInstance()),
            right.getOrDefault(key, MissingNode.getInstance()),
            out);
      }
    } else {
      out.add(path);
    }
  }

  /**
   * An array's elements by a readable key: conditions by {@code type}, containers and ports by
   * {@code name}, owner references by {@code kind/name}; otherwise by index.
   */
  private static Map<String, JsonNode> elements(JsonNode array) {
    Map<String, JsonNode> byKey = new LinkedHashMap<>();
    int index = 0;
    for (Iterator<JsonNode> it = array.elements(); it.hasNext(); index++) {
      JsonNode element = it.next();
      String key = key(element);
      byKey.put(key == null || byKey.containsKey(key) ? String.valueOf(index) : key, element);
    }
    return byKey;
  }

  private static String key(JsonNode element) {
    if (!element.isObject()) {
      return null;
    }
    if (element.path("kind").isTextual() && element.path("uid").isTextual()) {
      return element.path("kind").asText() + "/" + element.path("name").asText();
    }
    for (String field : List.of("type", "name")) {
      if (element.path(field).isTextual()) {
        return element.path(field).asText();
      }
    }
    return null;
  }
}
