package io.github.kubeharness.cli;

import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.settings.HarnessSettings;
import io.github.kubeharness.settings.Setting;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The attribute table of docs/controller-test.md, generated ({@code kube-harness env
 * --attributes}): an attribute that a setting backs takes its default and meaning from the registry
 * ({@link HarnessSettings#ALL}); the others are described here, and an attribute of {@link
 * ControllerTest} described nowhere fails the generation, so the table cannot miss one.
 */
public final class AttributeReference {

  // The attributes no setting backs: default, meaning (Markdown), in the table's order.
  private static final Map<String, String[]> OWN = new LinkedHashMap<>();

  static {
    own(
        "crds",
        "none",
        "CRD files, directories of them, or `classpath:` resources; relative to the module"
            + " directory");
    own(
        "crdClasses",
        "none",
        "resource classes whose CRD the fabric8 CRD generator wrote to"
            + " `META-INF/fabric8/<plural>.<group>-v1.yml`");
    own(
        "reconcilers",
        "none",
        "JOSDK reconcilers (a constructor taking a `KubernetesClient`, else a no-arg one; checked"
            + " once per class, before a cluster starts)");
    own(
        "controllers",
        "none",
        "`ControllerFactory` classes for any other controller (a plain fabric8 informer, ...), see"
            + " below");
    own(
        "clusters",
        "one unnamed cluster",
        "several named clusters (`{\"hub\", \"edge-1\"}`), each its own API server, CRDs and test"
            + " namespace; the first is the default; `@ClusterControllers` places controllers on"
            + " the others, `@Cluster(\"edge-1\")` injects theirs — see [Several clusters in one"
            + " test](multi-cluster.md)");
    own(
        "namespaceMode",
        "`PER_TEST`",
        "`NamespaceMode.PER_TEST`: a fresh namespace and fresh controllers for every test;"
            + " `NamespaceMode.PER_CLASS`: one of each for the whole class (available in"
            + " `@BeforeAll`; use it with `@TestInstance(PER_CLASS)` for non-static `@BeforeAll`)");
    own("keepNamespaceOnFailure", "`false`", "keep a failed test's namespace for inspection");
    own(
        "rbac",
        "none",
        "run the controllers as the ServiceAccount these RBAC manifests (e.g. your `config/rbac`)"
            + " declare and bind, instead of as cluster admin");
    own(
        "serviceAccount",
        "the one the `rbac` manifests declare, else the one their bindings name",
        "the ServiceAccount the controllers run as; when set, it must be the one the manifests"
            + " declare and bind");
    own(
        "webhooks",
        "none",
        "webhook manifests (e.g. `config/webhook`, `config/crd/patches`):"
            + " Mutating/ValidatingWebhookConfigurations and CRD conversion webhooks, served in the"
            + " test JVM — see [Webhooks](webhooks.md)");
    own(
        "webhookHandlers",
        "none",
        "`WebhookHandlers` classes that register a handler for every path of `webhooks` (both or"
            + " neither)");
  }

  private static void own(String attribute, String defaultValue, String meaning) {
    OWN.put(attribute, new String[] {defaultValue, meaning});
  }

  private AttributeReference() {}

  /** The Markdown table: the setting-backed attributes first, then the others; ends with \n. */
  public static String markdown() {
    StringBuilder table = new StringBuilder("| attribute | default | meaning |\n|---|---|---|\n");
    for (Setting<?> setting : HarnessSettings.ALL) {
      setting
          .annotationAttribute()
          .ifPresent(
              a ->
                  row(
                      table,
                      a,
                      "`" + setting.property() + "`, else " + quoted(setting.defaultValue()),
                      setting.doc()));
    }
    OWN.forEach((attribute, text) -> row(table, attribute, text[0], text[1]));
    for (Method attribute : ControllerTest.class.getDeclaredMethods()) {
      String name = attribute.getName();
      if (!OWN.containsKey(name) && setting(name).isEmpty()) {
        throw new IllegalStateException(
            "@ControllerTest(" + name + ") is described neither by a setting nor here");
      }
    }
    return table.toString();
  }

  private static Optional<Setting<?>> setting(String attribute) {
    return HarnessSettings.ALL.stream()
        .filter(s -> s.annotationAttribute().filter(attribute::equals).isPresent())
        .findFirst();
  }

  private static void row(StringBuilder table, String attribute, String def, String meaning) {
    table.append("| `").append(attribute).append("` | ").append(def).append(" | ");
    table.append(meaning.replace("|", "\\|")).append(" |\n");
  }

  private static String quoted(String text) {
    return text.contains("`") ? text : "`" + text + "`";
  }
}
