package io.github.kubeharness.internal.controlplane;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Writes a kubeconfig with one cluster, one user (client certificate) and one context. */
public final class Kubeconfig {

  private Kubeconfig() {}

  /** The kubeconfig YAML, certificates and key embedded as base64 data. */
  public static String render(
      String contextName, String serverUrl, String caPem, String certPem, String keyPem) {
    return String.join(
        "\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: " + contextName,
        "  cluster:",
        "    server: " + serverUrl,
        "    certificate-authority-data: " + base64(caPem),
        "users:",
        "- name: " + contextName,
        "  user:",
        "    client-certificate-data: " + base64(certPem),
        "    client-key-data: " + base64(keyPem),
        "contexts:",
        "- name: " + contextName,
        "  context:",
        "    cluster: " + contextName,
        "    user: " + contextName,
        "    namespace: default",
        "current-context: " + contextName,
        "");
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8));
  }
}
