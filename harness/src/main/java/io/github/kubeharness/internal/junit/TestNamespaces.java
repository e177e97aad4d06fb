package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.security.SecureRandom;
import java.util.Locale;

/**
 * Creates and deletes the namespaces tests run in. Names read like the test ({@code
 * widgetit-createsconfigmap-x7k2p}) so a kept namespace or a report is easy to place. Public for
 * the framework integrations (io.github.kubeharness.integration), whose tests get the same
 * namespaces.
 */
public final class TestNamespaces {

  static final String LABEL = "kube-harness.io/test";
  // The JVM that made the namespace: on a kept control plane (kubeharness.reuse) the next JVM
  // deletes those whose JVM is gone (killed before it could clean up).
  static final String OWNER_PID = "kube-harness.io/owner-pid";
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  private TestNamespaces() {}

  /** Creates a namespace for {@code className}/{@code methodName} (method may be null). */
  public static String create(KubernetesClient admin, String className, String methodName) {
    return createNamed(admin, className, name(className, methodName));
  }

  /**
   * Creates namespace {@code name} for a test of {@code className}: the namespace a test has in its
   * further clusters carries the first cluster's name.
   */
  static String createNamed(KubernetesClient admin, String className, String name) {
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(LABEL, label(className))
                .addToLabels(OWNER_PID, Long.toString(ProcessHandle.current().pid()))
                .addToLabels("app.kubernetes.io/managed-by", "kube-harness")
                .endMetadata()
                .build())
        .create();
    return name;
  }

  /**
   * Deletes the test namespaces left by JVMs of this machine that are gone (a kept control plane
   * outlives the JVMs using it); returns how many.
   */
  static int sweepOrphans(KubernetesClient admin) {
    int swept = 0;
    for (Namespace namespace : admin.namespaces().withLabel(OWNER_PID).list().getItems()) {
      String owner = namespace.getMetadata().getLabels().get(OWNER_PID);
      if (owner.matches("\\d+") && ProcessHandle.of(Long.parseLong(owner)).isEmpty()) {
        delete(admin, namespace.getMetadata().getName());
        swept++;
      }
    }
    return swept;
  }

  /** Starts the deletion and returns; the namespace controller (standard profile) finishes it. */
  public static void delete(KubernetesClient admin, String namespace) {
    admin.namespaces().withName(namespace).delete();
  }

  static String name(String className, String methodName) {
    String base = sanitize(className) + (methodName == null ? "" : "-" + sanitize(methodName));
    if (base.length() > 56) {
      base = base.substring(0, 56);
    }
    base = base.replaceAll("-+$", "");
    StringBuilder suffix = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      suffix.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return (base.isEmpty() ? "test" : base) + "-" + suffix;
  }

  private static String sanitize(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
  }

  private static String label(String className) {
    String l = sanitize(className);
    return l.length() > 63 ? l.substring(0, 63).replaceAll("-+$", "") : l;
  }
}
