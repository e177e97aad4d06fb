package io.github.kubeharness.internal.scaffold;

import io.github.kubeharness.KubeHarnessException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks and derived forms of the names a generated project is made of. Each check fails with
 * the option, what was given, the rule and an example that passes, before anything is written.
 */
final class Names {

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern JAVA_PACKAGE =
      Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)*");
  private static final Pattern VERSION = Pattern.compile("v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?");
  private static final Pattern KIND = Pattern.compile("[A-Z][A-Za-z0-9]*");

  private static final Set<String> JAVA_KEYWORDS =
      Set.of(
          "abstract",
          "assert",
          "boolean",
          "break",
          "byte",
          "case",
          "catch",
          "char",
          "class",
          "const",
          "continue",
          "default",
          "do",
          "double",
          "else",
          "enum",
          "extends",
          "final",
          "finally",
          "float",
          "for",
          "goto",
          "if",
          "implements",
          "import",
          "instanceof",
          "int",
          "interface",
          "long",
          "native",
          "new",
          "package",
          "private",
          "protected",
          "public",
          "return",
          "short",
          "static",
          "strictfp",
          "super",
          "switch",
          "synchronized",
          "this",
          "throw",
          "throws",
          "transient",
          "try",
          "void",
          "volatile",
          "while",
          "true",
          "false",
          "null",
          "var",
          "record",
          "yield",
          "sealed",
          "permits");

  // Simple names the generated classes import or declare: a kind of that name would not compile.
  private static final Set<String> TAKEN_BY_GENERATED_CODE =
      Set.of(
          "Deployment",
          "DeploymentBuilder",
          "Context",
          "ControllerConfiguration",
          "Reconciler",
          "UpdateControl",
          "Workflow",
          "Dependent",
          "Map",
          "String",
          "Integer",
          "Long",
          "Object",
          "Override",
          "Default",
          "Max",
          "Min",
          "ValidationRule",
          "Namespaced",
          "CustomResource",
          "Group",
          "Plural",
          "Version",
          "KubernetesClient",
          "KubernetesClientException",
          "ControllerTest",
          "Test",
          "OperatorMain",
          "Operator",
          "JsonInclude",
          "JsonPropertyDescription");

  private Names() {}

  static void requireDomain(String domain) {
    if (domain == null || !DNS_SUBDOMAIN.matcher(domain).matches() || domain.length() > 200) {
      throw bad(
          "--domain",
          domain,
          "a DNS subdomain of lowercase letters, digits, '-' and '.' (at most 200 characters):"
              + " the API groups of the project's kinds end in it",
          "my.domain");
    }
  }

  static void requirePackage(String javaPackage) {
    if (javaPackage == null || !JAVA_PACKAGE.matcher(javaPackage).matches()) {
      throw bad(
          "--package",
          javaPackage,
          "a Java package name of lowercase segments separated by '.'",
          "com.example.guestbook");
    }
    for (String segment : javaPackage.split("\\.")) {
      if (JAVA_KEYWORDS.contains(segment)) {
        throw bad(
            "--package",
            javaPackage,
            "a Java package name; '" + segment + "' is a Java keyword",
            "com.example.guestbook");
      }
    }
  }

  static void requireProjectName(String name, String dir) {
    if (name == null || !DNS_LABEL.matcher(name).matches() || name.length() > 40) {
      throw new KubeHarnessException(
          "The project's name comes from the directory's name, and "
              + dir
              + " gives '"
              + name
              + "'; it must be a DNS label of lowercase letters, digits and '-' starting with a"
              + " letter (at most 40 characters), since it becomes the artifactId and the"
              + " kustomize name prefix. Fix: --dir a directory named like my-operator.");
    }
  }

  static void requireGroup(String group) {
    if (group == null || !DNS_LABEL.matcher(group).matches() || group.length() > 63) {
      throw bad(
          "--group",
          group,
          "a DNS label of lowercase letters, digits and '-' starting with a letter (the API group"
              + " is <group>.<domain>)",
          "webapp");
    }
  }

  static void requireVersion(String version) {
    if (version == null || !VERSION.matcher(version).matches()) {
      throw bad(
          "--version",
          version,
          "a Kubernetes API version: v<N>, v<N>alpha<M> or v<N>beta<M> (N, M from 1)",
          "v1");
    }
  }

  static void requireKind(String kind) {
    if (kind == null || !KIND.matcher(kind).matches() || kind.length() > 63) {
      throw bad(
          "--kind",
          kind,
          "an upper-camel-case name of letters and digits starting with an upper-case letter"
              + " (at most 63 characters)",
          "Guestbook");
    }
    if (TAKEN_BY_GENERATED_CODE.contains(kind)) {
      throw bad(
          "--kind",
          kind,
          "a name the generated code does not already use for a class it imports or declares",
          "Guestbook");
    }
  }

  /** The resource's plural (lower case), as kubebuilder makes it: guestbook to guestbooks. */
  static String plural(String kind) {
    String lower = kind.toLowerCase(Locale.ROOT);
    if (lower.endsWith("s")
        || lower.endsWith("x")
        || lower.endsWith("z")
        || lower.endsWith("ch")
        || lower.endsWith("sh")) {
      return lower + "es";
    }
    if (lower.endsWith("y")
        && lower.length() > 1
        && "aeiou".indexOf(lower.charAt(lower.length() - 2)) < 0) {
      return lower.substring(0, lower.length() - 1) + "ies";
    }
    return lower + "s";
  }

  private static KubeHarnessException bad(
      String option, String value, String rule, String example) {
    return new KubeHarnessException(
        option
            + " '"
            + value
            + "' is not valid: it must be "
            + rule
            + ". Example: "
            + option
            + " "
            + example
            + ".");
  }
}
