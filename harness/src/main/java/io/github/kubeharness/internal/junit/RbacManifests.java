package io.github.kubeharness.internal.junit;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.manifest.ManifestFiles;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * The RBAC manifests of {@code @ControllerTest(rbac = ...)}, read and checked before any cluster
 * work, and the ServiceAccount the controllers run as.
 *
 * <p>The point of {@code rbac} is to test what will be deployed, so the bindings are not rewritten
 * to fit the test: the controllers run as the ServiceAccount the manifests declare (or the one
 * {@code serviceAccount} names), and every binding's ServiceAccount subject must name it — a
 * misspelt subject would leave the deployed operator without permissions, so it fails here with
 * both names. Only the subjects' namespace changes, to the test's namespace.
 */
public record RbacManifests(List<ManifestFiles.Document> documents, String serviceAccount) {

  /** A ServiceAccount subject of a binding, and where it was written. */
  private record Subject(String name, String binding, String source) {}

  /**
   * Reads and checks {@code entries}.
   *
   * @param serviceAccount the {@code serviceAccount} attribute, blank when not set
   * @param where the annotation, for messages
   */
  public static RbacManifests read(List<String> entries, String serviceAccount, String where) {
    List<ManifestFiles.Document> documents;
    try {
      documents = ManifestFiles.read(entries, "rbac");
    } catch (KubeHarnessException e) {
      throw new ExtensionConfigurationException(e.getMessage(), e);
    }
    Set<String> declared = new LinkedHashSet<>();
    List<String> declaredIn = new ArrayList<>();
    List<Subject> subjects = new ArrayList<>();
    for (ManifestFiles.Document document : documents) {
      String name = document.node().path("metadata").path("name").asText("");
      if (document.kind().equals("ServiceAccount")) {
        declared.add(name);
        declaredIn.add(document.source());
      } else if (document.kind().endsWith("RoleBinding")) {
        for (JsonNode s : document.node().path("subjects")) {
          if ("ServiceAccount".equals(s.path("kind").asText())) {
            subjects.add(
                new Subject(
                    s.path("name").asText(""), document.kind() + " " + name, document.source()));
          }
        }
      }
    }
    String account = resolve(serviceAccount, declared, declaredIn, subjects, where);
    check(account, serviceAccount.isBlank(), declared, subjects, where);
    return new RbacManifests(documents, account);
  }

  private static String resolve(
      String attribute,
      Set<String> declared,
      List<String> declaredIn,
      List<Subject> subjects,
      String where) {
    if (!attribute.isBlank()) {
      if (!declared.isEmpty() && !declared.contains(attribute)) {
        throw new ExtensionConfigurationException(
            where
                + " runs the controllers as ServiceAccount '"
                + attribute
                + "' (serviceAccount), but the rbac manifests declare ServiceAccount "
                + quoted(declared)
                + " ("
                + String.join(", ", declaredIn)
                + "). Deployed, the operator would run as the declared one: set serviceAccount = \""
                + declared.iterator().next()
                + "\" or remove the attribute.");
      }
      return attribute;
    }
    if (declared.size() == 1) {
      return declared.iterator().next();
    }
    Set<String> bound = new LinkedHashSet<>();
    subjects.forEach(s -> bound.add(s.name()));
    if (declared.isEmpty() && bound.size() == 1) {
      return bound.iterator().next();
    }
    throw new ExtensionConfigurationException(
        where
            + " cannot tell which ServiceAccount the controllers run as: the rbac manifests declare "
            + (declared.isEmpty() ? "no ServiceAccount" : "ServiceAccounts " + quoted(declared))
            + " and their bindings name "
            + (bound.isEmpty() ? "no ServiceAccount" : quoted(bound))
            + ". Set serviceAccount = \"<the name your Deployment's serviceAccountName uses>\".");
  }

  private static void check(
      String account, boolean derived, Set<String> declared, List<Subject> subjects, String where) {
    for (Subject s : subjects) {
      if (!s.name().equals(account) && !declared.contains(s.name())) {
        throw new ExtensionConfigurationException(
            s.binding()
                + " ("
                + s.source()
                + ") binds ServiceAccount '"
                + s.name()
                + "', but the controllers run as ServiceAccount '"
                + account
                + "' ("
                + (derived ? "the one the rbac manifests declare" : "serviceAccount of " + where)
                + "). Deployed, this binding would grant the operator nothing. Fix the subject's"
                + " name"
                + (derived ? "." : " or serviceAccount."));
      }
    }
    if (subjects.stream().noneMatch(s -> s.name().equals(account))) {
      Set<String> bound = new LinkedHashSet<>();
      subjects.forEach(s -> bound.add(s.name()));
      throw new ExtensionConfigurationException(
          "No RoleBinding or ClusterRoleBinding in the rbac manifests of "
              + where
              + " binds ServiceAccount '"
              + account
              + "', the one the controllers run as"
              + (bound.isEmpty() ? "" : " (the bindings name " + quoted(bound) + ")")
              + ": deployed, the operator would have no permissions. Add a binding whose subject"
              + " is that ServiceAccount, or set serviceAccount to the one your bindings name.");
    }
  }

  private static String quoted(Set<String> names) {
    return names.stream().map(n -> "'" + n + "'").reduce((a, b) -> a + ", " + b).orElse("");
  }
}
