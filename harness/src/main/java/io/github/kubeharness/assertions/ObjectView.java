package io.github.kubeharness.assertions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.OperationInfo;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.YamlDumpSettingsBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads any Kubernetes object generically, as its JSON tree: a typed custom resource, a {@code
 * GenericKubernetesResource} and a built-in kind all look the same here, so conditions and owner
 * references need no per-kind code.
 */
final class ObjectView {

  static final int MAX_YAML_LINES = 60;

  // NB: Serialization.jsonMapper() is deprecated in fabric8 7, so this is a serializer configured
  // as the client's own. Objects only ever go to trees and YAML here, so no class-path scan for
  // model types; minimal quotes make the YAML read like kubectl's.
  private static final KubernetesSerialization SERIALIZATION =
      new KubernetesSerialization(
          new ObjectMapper(), false, new YamlDumpSettingsBuilder().setMinimizeQuotes(true).build());

  private ObjectView() {}

  /** What an assertion is about: kind, name and namespace (null for cluster-scoped objects). */
  record Target(String kind, String name, String namespace) {

    /**
     * The target of a fabric8 resource handle: from its operation context when it has one ({@code
     * client.configMaps().withName(..)}), else from the item it wraps ({@code
     * client.resource(..)}).
     */
    static Target of(Resource<?> resource) {
      if (resource instanceof OperationInfo info) {
        return new Target(info.getKind(), info.getName(), info.getNamespace());
      }
      Object item = resource.item();
      if (item instanceof HasMetadata object && object.getMetadata() != null) {
        return new Target(
            object.getKind(), object.getMetadata().getName(), object.getMetadata().getNamespace());
      }
      return new Target(null, null, null);
    }

    /** This target with the blanks filled in from an object the watch has seen. */
    Target completedBy(HasMetadata seen) {
      if (seen == null) {
        return this;
      }
      return new Target(
          kind != null ? kind : seen.getKind(),
          name != null ? name : seen.getMetadata().getName(),
          namespace != null ? namespace : seen.getMetadata().getNamespace());
    }

    @Override
    public String toString() {
      String base = (kind == null ? "object" : kind) + (name == null ? "" : " " + name);
      return namespace == null ? base : base + " in namespace " + namespace;
    }
  }

  /** One entry of {@code status.conditions}; fields the object does not set are null. */
  record Condition(String type, String status, String reason, String message, Long generation) {

    /** The condition as one line: {@code type=status (reason: message)}. */
    @Override
    public String toString() {
      StringBuilder line = new StringBuilder().append(type).append('=').append(status);
      if (reason != null || message != null) {
        line.append(" (").append(reason == null ? "" : reason);
        if (message != null) {
          line.append(reason == null ? "" : ": ").append(message);
        }
        line.append(')');
      }
      if (generation != null) {
        line.append(" observedGeneration=").append(generation);
      }
      return line.toString();
    }
  }

  /** {@code Widget w in namespace ns-1}: an object's kind, name and namespace for messages. */
  static String describe(HasMetadata object) {
    return new Target(
            object.getKind(), object.getMetadata().getName(), object.getMetadata().getNamespace())
        .toString();
  }

  /** The object as a JSON tree; a missing node for null. */
  static JsonNode tree(Object object) {
    return object == null
        ? MissingNode.getInstance()
        : SERIALIZATION.convertValue(object, JsonNode.class);
  }

  /** The entries of {@code status.conditions}, in the object's order. */
  static List<Condition> conditions(HasMetadata object) {
    List<Condition> conditions = new ArrayList<>();
    for (JsonNode c : tree(object).path("status").path("conditions")) {
      JsonNode generation = c.path("observedGeneration");
      conditions.add(
          new Condition(
              text(c, "type"),
              text(c, "status"),
              text(c, "reason"),
              text(c, "message"),
              generation.canConvertToLong() ? generation.asLong() : null));
    }
    return conditions;
  }

  /** The object as YAML without {@code metadata.managedFields}, at most {@code maxLines} lines. */
  static String yaml(HasMetadata object, int maxLines) {
    JsonNode tree = tree(object).deepCopy();
    if (tree.path("metadata") instanceof ObjectNode metadata) {
      // Server-side-apply bookkeeping: long, and never what a reader is looking for.
      metadata.remove("managedFields");
    }
    String yaml = SERIALIZATION.asYaml(tree);
    if (yaml.startsWith("---\n")) {
      yaml = yaml.substring(4);
    }
    String[] lines = yaml.split("\n", -1);
    int count =
        lines.length > 0 && lines[lines.length - 1].isEmpty() ? lines.length - 1 : lines.length;
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < Math.min(count, maxLines); i++) {
      out.append(lines[i]).append('\n');
    }
    if (count > maxLines) {
      out.append("... (").append(count - maxLines).append(" more lines)\n");
    }
    return out.toString();
  }

  /** Every line of {@code text} prefixed with {@code indent}. */
  static String indent(String text, String indent) {
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\n")) {
      out.append(indent).append(line).append('\n');
    }
    return out.toString();
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }
}
