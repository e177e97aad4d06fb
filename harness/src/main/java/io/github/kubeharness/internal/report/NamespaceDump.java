package io.github.kubeharness.internal.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/**
 * Every object of one namespace, custom resources included, as {@code objects.yaml}: the Namespace
 * first, then one YAML document per object sorted by kind and name, each after a {@code # Kind
 * name} comment, without {@code metadata.managedFields}. A type whose list fails is named in the
 * file's header and skipped.
 *
 * <p>Secret values are replaced by their length: reports end up as CI artifacts, and the keys are
 * what a failing test usually needs to see.
 */
final class NamespaceDump {

  /** One object of the namespace, for the summary. */
  record Entry(String apiVersion, String kind, String name, List<String> unhealthyConditions) {}

  /**
   * What was found: whether the Namespace itself exists, its objects (without the Namespace), the
   * types or groups that could not be listed, and the text of {@code objects.yaml}.
   */
  record Result(boolean namespaceFound, List<Entry> objects, List<String> problems, String yaml) {}

  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
          .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
          .build();

  private static final Comparator<Listed> ORDER =
      Comparator.comparing((Listed l) -> l.entry.kind())
          .thenComparing(l -> l.entry.name())
          .thenComparing(l -> l.entry.apiVersion());

  private record Listed(Entry entry, JsonNode object) {}

  private NamespaceDump() {}

  static Result dump(KubernetesClient admin, String namespace) {
    List<String> problems = new ArrayList<>();
    JsonNode namespaceObject = null;
    try {
      Namespace found = admin.namespaces().withName(namespace).get();
      if (found != null) {
        namespaceObject = toTree(admin, found);
      }
    } catch (RuntimeException e) {
      problems.add("Namespace " + namespace + ": " + message(e));
    }

    ResourceTypes.Discovered discovered = ResourceTypes.discover(admin);
    discovered.problems().forEach(p -> problems.add("discovery of " + p));
    List<Listed> listed = new ArrayList<>();
    for (ResourceTypes.Type type : discovered.types()) {
      try {
        for (GenericKubernetesResource item :
            admin
                .genericKubernetesResources(type.context())
                .inNamespace(namespace)
                .list()
                .getItems()) {
          JsonNode object = toTree(admin, item);
          listed.add(new Listed(entry(type, object), object));
        }
      } catch (RuntimeException e) {
        problems.add(type.plural() + " (" + type.apiVersion() + "): " + message(e));
      }
    }
    listed.sort(ORDER);

    String yaml = render(namespace, namespaceObject, listed, problems);
    return new Result(
        namespaceObject != null,
        listed.stream().map(Listed::entry).toList(),
        List.copyOf(problems),
        yaml);
  }

  private static Entry entry(ResourceTypes.Type type, JsonNode object) {
    String kind = object.path("kind").asText(type.kind());
    String name = object.path("metadata").path("name").asText("?");
    return new Entry(type.apiVersion(), kind, name, Conditions.unhealthy(object));
  }

  private static JsonNode toTree(KubernetesClient admin, Object resource) {
    JsonNode tree = admin.getKubernetesSerialization().convertValue(resource, JsonNode.class);
    if (tree.path("metadata") instanceof ObjectNode metadata) {
      metadata.remove("managedFields");
    }
    if ("Secret".equals(tree.path("kind").asText())
        && tree.path("apiVersion").asText().equals("v1")) {
      redactSecret((ObjectNode) tree);
    }
    return tree;
  }

  private static void redactSecret(ObjectNode secret) {
    for (String field : List.of("data", "stringData")) {
      if (secret.get(field) instanceof ObjectNode values) {
        List<String> keys = new ArrayList<>();
        values.fieldNames().forEachRemaining(keys::add);
        for (String key : keys) {
          values.put(key, "<redacted: " + size(field, values.path(key).asText("")) + ">");
        }
      }
    }
    // kubectl apply keeps the whole Secret, values included, in this annotation.
    if (secret.path("metadata").path("annotations") instanceof ObjectNode annotations
        && annotations.has("kubectl.kubernetes.io/last-applied-configuration")) {
      annotations.put("kubectl.kubernetes.io/last-applied-configuration", "<redacted>");
    }
  }

  private static String size(String field, String value) {
    if (field.equals("data")) {
      try {
        return Base64.getDecoder().decode(value).length + " bytes";
      } catch (IllegalArgumentException notBase64) {
        // Fall through: report what is there.
      }
    }
    return value.length() + " characters";
  }

  private static String render(
      String namespace, JsonNode namespaceObject, List<Listed> listed, List<String> problems) {
    StringBuilder out = new StringBuilder();
    out.append("# Objects in namespace ")
        .append(namespace)
        .append(" at ")
        .append(ReportText.dateTime(Instant.now()))
        .append(": ")
        .append(listed.size())
        .append(listed.size() == 1 ? " object" : " objects")
        .append(" (events are in events.txt)\n");
    for (String problem : problems) {
      out.append("# not listed: ").append(ReportText.oneLine(problem, 300)).append('\n');
    }
    if (namespaceObject == null) {
      out.append("# Namespace ").append(namespace).append(" not found\n");
    } else {
      document(out, "Namespace " + namespace, namespaceObject);
    }
    for (Listed l : listed) {
      document(out, l.entry.kind() + " " + l.entry.name(), l.object);
    }
    return out.toString();
  }

  private static void document(StringBuilder out, String title, JsonNode object) {
    out.append("---\n# ").append(title).append('\n');
    try {
      out.append(YAML.writeValueAsString(object));
    } catch (JsonProcessingException e) {
      out.append("# cannot render as YAML: ").append(message(e)).append('\n');
    }
  }

  private static String message(Exception e) {
    return ReportText.oneLine(
        e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), 300);
  }
}
