package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * kube-harness-bom (bom/pom.xml) has no parent, so its version and its fabric8 version are written
 * twice; this keeps them equal to the parent's, and its list equal to the artifacts users depend
 * on.
 */
class BomTest {

  private static final Path ROOT = MarkdownDocs.root();

  @Test
  void theBomCarriesTheParentsVersionAndFabric8Version() throws Exception {
    Document parent = read("pom.xml");
    Document bom = read("bom/pom.xml");
    assertThat(child(bom.getDocumentElement(), "parent"))
        .as("bom/pom.xml must not inherit the parent's dependencyManagement (JUnit, JOSDK, ...)")
        .isNull();
    assertThat(text(bom, "version"))
        .as("bom/pom.xml's <version>: set it to the parent's")
        .isEqualTo(text(parent, "version"));
    assertThat(property(bom, "fabric8.version"))
        .as(
            "bom/pom.xml's fabric8.version: set it to the parent's, the fabric8 the harness is built on")
        .isEqualTo(property(parent, "fabric8.version"));
  }

  @Test
  void theBomManagesEveryArtifactUsersDependOnAndNoJUnitOrJosdk() throws Exception {
    List<String> managed = new ArrayList<>();
    Element management = child(read("bom/pom.xml").getDocumentElement(), "dependencyManagement");
    for (Node n = child(management, "dependencies").getFirstChild();
        n != null;
        n = n.getNextSibling()) {
      if (n instanceof Element dependency) {
        managed.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId"));
      }
    }
    List<String> published = new ArrayList<>();
    for (String module : List.of("harness", "spring", "quarkus")) {
      published.add("io.github.kubeharness:" + text(read(module + "/pom.xml"), "artifactId"));
    }
    assertThat(managed).containsAll(published).contains("io.fabric8:kubernetes-client-bom");
    assertThat(managed)
        .as("JUnit and JOSDK are the user's choice (docs/bom.md)")
        .noneMatch(ga -> ga.startsWith("org.junit") || ga.startsWith("io.javaoperatorsdk"));
  }

  private static Document read(String path) throws Exception {
    return DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(ROOT.resolve(path).toFile());
  }

  /** A direct child element of the project (or of the given element), as written, not inherited. */
  private static String text(Document pom, String name) {
    return text(pom.getDocumentElement(), name);
  }

  private static String text(Element element, String name) {
    Element found = child(element, name);
    return found == null ? null : found.getTextContent().strip();
  }

  private static String property(Document pom, String name) {
    return text(child(pom.getDocumentElement(), "properties"), name);
  }

  private static Element child(Element parent, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return e;
      }
    }
    return null;
  }
}
