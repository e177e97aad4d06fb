package io.github.kubeharness.internal.faults;

import java.util.List;
import java.util.Locale;

/**
 * What a Kubernetes API request is about, read from its method and path as kube-apiserver reads it:
 * verb, resource (with its subresource, {@code guestbooks/status}), namespace and name. Paths
 * outside the resource API ({@code /version}, discovery) have the method as verb and no resource.
 * {@code cacheable}: a read the API server may answer from its watch cache.
 */
record RequestInfo(String verb, String resource, String namespace, String name, boolean cacheable) {

  RequestInfo(String verb, String resource, String namespace, String name) {
    this(verb, resource, namespace, name, false);
  }

  static RequestInfo of(String method, String path, String query) {
    String httpVerb = method.toLowerCase(Locale.ROOT);
    List<String> parts = List.of(path.replaceAll("^/+|/+$", "").split("/+"));
    int start;
    if (parts.size() >= 3 && parts.get(0).equals("api")) {
      start = 2; // api/v1/...
    } else if (parts.size() >= 4 && parts.get(0).equals("apis")) {
      start = 3; // apis/group/version/...
    } else {
      return new RequestInfo(httpVerb, "", "", "");
    }
    List<String> rest = parts.subList(start, parts.size());
    String namespace = "";
    // namespaces/{ns}/{resource}...; but namespaces/{name} alone (or with a subresource such as
    // finalize/status) is the namespace object itself.
    boolean namespaceSubresource =
        rest.size() == 3 && List.of("status", "finalize").contains(rest.get(2));
    if (rest.size() >= 3 && rest.get(0).equals("namespaces") && !namespaceSubresource) {
      namespace = rest.get(1);
      rest = rest.subList(2, rest.size());
    }
    String resource = rest.get(0);
    String name = rest.size() >= 2 ? rest.get(1) : "";
    if (rest.size() >= 3) {
      resource = resource + "/" + rest.get(2);
    }
    if ((resource.equals("namespaces") || resource.startsWith("namespaces/")) && !name.isEmpty()) {
      namespace = name;
    }
    String verb = verb(httpVerb, name, query);
    return new RequestInfo(
        verb,
        resource,
        namespace,
        name,
        (verb.equals("get") || verb.equals("list")) && mayBeServedFromCache(query));
  }

  /**
   * Whether a read may be answered from the watch cache: {@code resourceVersion=0} (any version) or
   * {@code resourceVersionMatch=NotOlderThan}. An empty resourceVersion asks for the newest.
   */
  private static boolean mayBeServedFromCache(String query) {
    if (query == null) {
      return false;
    }
    boolean versionGiven = false;
    for (String parameter : query.split("&")) {
      if (parameter.equals("resourceVersion=0")
          || parameter.equals("resourceVersionMatch=NotOlderThan")) {
        return true;
      }
      versionGiven |= parameter.startsWith("resourceVersion=") && parameter.length() > 16;
    }
    // A list with a resourceVersion and no resourceVersionMatch is NotOlderThan too.
    return versionGiven && !query.contains("resourceVersionMatch=");
  }

  private static String verb(String httpVerb, String name, String query) {
    return switch (httpVerb) {
      case "get" -> isWatch(query) ? "watch" : name.isEmpty() ? "list" : "get";
      case "post" -> "create";
      case "put" -> "update";
      case "patch" -> "patch";
      case "delete" -> name.isEmpty() ? "deletecollection" : "delete";
      default -> httpVerb;
    };
  }

  private static boolean isWatch(String query) {
    if (query == null) {
      return false;
    }
    for (String parameter : query.split("&")) {
      if (parameter.equals("watch=true") || parameter.equals("watch=1")) {
        return true;
      }
    }
    return false;
  }

  boolean isWatch() {
    return verb.equals("watch");
  }

  /** E.g. {@code update guestbooks/status ns/name}. */
  @Override
  public String toString() {
    String object;
    if (namespace.isEmpty() || namespace.equals(name) && resource.startsWith("namespaces")) {
      object = name.isEmpty() ? "" : " " + name;
    } else {
      object = " " + namespace + (name.isEmpty() ? "" : "/" + name);
    }
    return verb + (resource.isEmpty() ? "" : " " + resource) + object;
  }
}
