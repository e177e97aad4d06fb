package io.github.kubeharness.internal.manifest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads Kubernetes manifests named in an annotation: files, directories of {@code .yaml}/{@code
 * .yml} files (recursively, sorted; kustomization files skipped) and {@code classpath:} resources.
 * Multi-document YAML is split into documents; a parse error names the file and line.
 */
public final class ManifestFiles {

  private static final YAMLMapper YAML = new YAMLMapper();

  /** One YAML document and where it came from. */
  public record Document(JsonNode node, String source, boolean fromDirectory) {
    public String kind() {
      return node.path("kind").asText("");
    }
  }

  private ManifestFiles() {}

  /** All documents of all entries, in order. {@code attribute} names the annotation attribute. */
  public static List<Document> read(List<String> entries, String attribute) {
    List<Document> documents = new ArrayList<>();
    for (String entry : entries) {
      if (entry.startsWith("classpath:")) {
        String resource = entry.substring("classpath:".length()).replaceFirst("^/", "");
        URL url = Thread.currentThread().getContextClassLoader().getResource(resource);
        if (url == null) {
          throw new KubeHarnessException(
              attribute + " entry '" + entry + "': no such resource on the test classpath.");
        }
        try (InputStream in = url.openStream()) {
          documents.addAll(
              parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), entry, false));
        } catch (IOException e) {
          throw new KubeHarnessException("Cannot read " + entry + ": " + e, e);
        }
        continue;
      }
      Path path = Path.of(entry);
      if (!Files.exists(path)) {
        throw new KubeHarnessException(
            attribute
                + " entry '"
                + entry
                + "' does not exist (resolved to "
                + path.toAbsolutePath()
                + "). Relative paths start at the working directory, which under Maven is the"
                + " module directory; use classpath: for resources.");
      }
      for (Path file : yamlFiles(path)) {
        documents.addAll(parse(readString(file), file.toString(), Files.isDirectory(path)));
      }
    }
    return documents;
  }

  /** Parses multi-document YAML; {@code source} names it in errors. */
  static List<Document> parse(String yaml, String source, boolean fromDirectory) {
    List<Document> documents = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
      while (it.hasNextValue()) {
        JsonNode node = it.nextValue();
        if (node != null && !node.isNull() && !node.isEmpty()) {
          documents.add(new Document(node, source, fromDirectory));
        }
      }
    } catch (IOException | RuntimeException e) {
      Throwable cause = e instanceof RuntimeException && e.getCause() != null ? e.getCause() : e;
      String line = "";
      if (cause instanceof JsonProcessingException jpe && jpe.getLocation() != null) {
        JsonLocation at = jpe.getLocation();
        line = " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      }
      throw new KubeHarnessException(
          source
              + " is not valid YAML"
              + line
              + ". Correct the file there, or leave it out of the manifests. The parser said: "
              + (cause instanceof JsonProcessingException jpe2 ? jpe2.getOriginalMessage() : cause),
          e);
    }
    return documents;
  }

  private static List<Path> yamlFiles(Path path) {
    if (Files.isRegularFile(path)) {
      return List.of(path);
    }
    try (Stream<Path> walk = Files.walk(path)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
          .filter(p -> !p.getFileName().toString().startsWith("kustomization."))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot list " + path + ": " + e, e);
    }
  }

  private static String readString(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot read " + file + ": " + e, e);
    }
  }
}
