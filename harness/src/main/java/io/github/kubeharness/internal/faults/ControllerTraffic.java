package io.github.kubeharness.internal.faults;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the controllers did through the fault proxy, per namespace, in counts: every write with its
 * answer, every request, every watch event the proxy handed them, and the collections they watched
 * or wrote to. The race explorer judges convergence by these counts (docs/races.md): the proxy sees
 * every request the controllers make, so nothing they write escapes it.
 */
final class ControllerTraffic {

  private static final Set<String> WRITE_VERBS =
      Set.of("create", "update", "patch", "delete", "deletecollection");

  private final Map<String, TrafficTally> byNamespace = new ConcurrentHashMap<>();

  /** The counts of {@code namespace}, from the controllers' first request there. */
  TrafficTally of(String namespace) {
    return byNamespace.computeIfAbsent(namespace, n -> new TrafficTally());
  }

  /** Drops what was counted for {@code namespace} (its test is over). */
  void forget(String namespace) {
    byNamespace.remove(namespace);
  }

  /** A request was answered ({@code status}); watches are counted by {@link #watching}. */
  void answered(RequestInfo info, String path, int status) {
    if (info.namespace().isEmpty() || info.resource().isEmpty()) {
      return;
    }
    TrafficTally tally = of(info.namespace());
    if (WRITE_VERBS.contains(info.verb())) {
      tally.write(
          new ControllerWrite(
              info.verb(), info.resource(), info.name(), objectPath(path, info), status),
          collectionPath(path, info));
    } else {
      tally.request();
    }
  }

  /** The controllers opened a watch of a collection of {@code info}'s namespace. */
  void watching(RequestInfo info, String path) {
    if (!info.namespace().isEmpty() && !info.resource().isEmpty()) {
      of(info.namespace()).watching(collectionPath(path, info));
    }
  }

  /** The proxy handed the controllers an object event. */
  void delivered(WatchEvent event) {
    if (!event.namespace().isEmpty()) {
      of(event.namespace()).event();
    }
  }

  /**
   * The path of the request's collection: up to its resource's plural ({@code
   * /apis/g/v/namespaces/ns/widgets}).
   */
  static String collectionPath(String path, RequestInfo info) {
    String plural = info.resource().split("/")[0];
    String marker = "/namespaces/" + info.namespace() + "/" + plural;
    int at = path.indexOf(marker);
    return at < 0 ? path : path.substring(0, at + marker.length());
  }

  /** The object's path, without subresource; the collection's when there is no name. */
  static String objectPath(String path, RequestInfo info) {
    String collection = collectionPath(path, info);
    return info.name().isEmpty() ? collection : collection + "/" + info.name();
  }
}
