package io.github.kubeharness.sample.guestbook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Renders a kustomization the way {@code kustomize build} does, for the fields {@code config/}
 * uses: {@code resources} (files and directories), {@code namespace}, {@code namePrefix} (with the
 * references that follow a name: role refs, ServiceAccount subjects, {@code serviceAccountName})
 * and {@code images}. Any other field fails the rendering, so a kustomization cannot outgrow what
 * the tests check without them noticing. (Tests do not depend on a kustomize binary.)
 */
final class Kustomize {

  static final Set<String> SUPPORTED = Set.of("resources", "namespace", "namePrefix", "images");

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Set<String> CLUSTER_SCOPED =
      Set.of("Namespace", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding");

  private Kustomize() {}

  /** The kustomization file of a directory. */
  static Path kustomization(Path dir) {
    return dir.resolve("kustomization.yaml");
  }

  /** The objects {@code kustomize build dir} would print. */
  static List<ObjectNode> build(Path dir) {
    JsonNode kustomization = read(kustomization(dir)).get(0);
    for (Iterator<String> it = kustomization.fieldNames(); it.hasNext(); ) {
      String field = it.next();
      if (!SUPPORTED.contains(field)) {
        throw new IllegalStateException(
            kustomization(dir)
                + " uses '"
                + field
                + "', which Kustomize (a test helper) does not"
                + " render; extend it so the manifests stay tested.");
      }
    }
    List<ObjectNode> objects = new ArrayList<>();
    for (JsonNode resource : kustomization.path("resources")) {
      Path path = dir.resolve(resource.asText()).normalize();
      if (Files.isDirectory(path)) {
        objects.addAll(build(path));
      } else {
        read(path).forEach(node -> objects.add((ObjectNode) node));
      }
    }
    String namespace = kustomization.path("namespace").asText(null);
    String prefix = kustomization.path("namePrefix").asText("");
    for (ObjectNode object : objects) {
      transform(object, namespace, prefix, kustomization.path("images"));
    }
    return objects;
  }

  /** Whether objects of this kind live in a namespace. */
  static boolean namespaced(JsonNode object) {
    return !CLUSTER_SCOPED.contains(object.path("kind").asText());
  }

  private static void transform(
      ObjectNode object, String namespace, String prefix, JsonNode images) {
    String kind = object.path("kind").asText();
    ObjectNode metadata = object.with("metadata");
    if (kind.equals("Namespace") && namespace != null) {
      metadata.put("name", namespace);
    } else if (!kind.equals("CustomResourceDefinition")) {
      metadata.put("name", prefix + metadata.path("name").asText());
    }
    if (namespace != null && namespaced(object)) {
      metadata.put("namespace", namespace);
    }
    if (object.has("roleRef")) {
      ObjectNode roleRef = object.with("roleRef");
      roleRef.put("name", prefix + roleRef.path("name").asText());
    }
    for (JsonNode subject : object.path("subjects")) {
      if (subject.path("kind").asText().equals("ServiceAccount")) {
        ((ObjectNode) subject).put("name", prefix + subject.path("name").asText());
        if (namespace != null) {
          ((ObjectNode) subject).put("namespace", namespace);
        }
      }
    }
    JsonNode podSpec = object.path("spec").path("template").path("spec");
    if (podSpec.has("serviceAccountName")) {
      ((ObjectNode) podSpec)
          .put("serviceAccountName", prefix + podSpec.path("serviceAccountName").asText());
    }
    for (JsonNode container : podSpec.path("containers")) {
      String image = container.path("image").asText();
      for (JsonNode rule : images) {
        if (image.equals(rule.path("name").asText())
            || image.startsWith(rule.path("name").asText() + ":")) {
          ((ObjectNode) container)
              .put("image", rule.path("newName").asText() + ":" + rule.path("newTag").asText());
        }
      }
    }
  }

  /** The YAML documents of a file. */
  static List<JsonNode> read(Path file) {
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
      List<JsonNode> documents = new ArrayList<>();
      while (it.hasNextValue()) {
        JsonNode node = it.nextValue();
        if (node != null && !node.isEmpty()) {
          documents.add(node);
        }
      }
      return documents;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
