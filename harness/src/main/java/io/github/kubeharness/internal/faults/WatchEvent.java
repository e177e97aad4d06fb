package io.github.kubeharness.internal.faults;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * What one watch event is about, read from its JSON ({@code {"type":..,"object":..}}): the event
 * type and the object's namespace, name and resourceVersion; empty fields when the message is not
 * such JSON (a protocol the gate does not read is still ordered and held by its watch's resource).
 */
record WatchEvent(String type, String namespace, String name, String resourceVersion) {

  static WatchEvent of(Buffer payload) {
    try {
      JsonObject event = new JsonObject(payload);
      JsonObject object = event.getJsonObject("object", new JsonObject());
      JsonObject metadata = object.getJsonObject("metadata", new JsonObject());
      return new WatchEvent(
          event.getString("type", ""),
          metadata.getString("namespace", ""),
          metadata.getString("name", ""),
          metadata.getString("resourceVersion", ""));
    } catch (DecodeException | ClassCastException e) {
      return new WatchEvent("", "", "", "");
    }
  }

  /** Bookmarks and errors carry no object state a client could see twice. */
  boolean objectState() {
    return type.equals("ADDED") || type.equals("MODIFIED") || type.equals("DELETED");
  }

  /** E.g. {@code MODIFIED configmaps ns/c rv 1234}. */
  String describe(String resource) {
    String object = namespace.isEmpty() ? name : namespace + "/" + name;
    return (type.isEmpty() ? "event" : type)
        + " "
        + resource
        + (object.isEmpty() ? "" : " " + object)
        + (resourceVersion.isEmpty() ? "" : " rv " + resourceVersion);
  }
}
