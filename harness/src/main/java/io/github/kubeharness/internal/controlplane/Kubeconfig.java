package io.github.kubeharness.internal.controlplane;

import io.fabric8.kubernetes.client.Config;
import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/** Kubeconfigs with one cluster, one user and one context. */
public final class Kubeconfig {

  private static final String NAME = "kube-harness";

  private Kubeconfig() {}

  /** A user authenticated by a client certificate; certificates and key embedded as data. */
  public static String forClientCertificate(
      String serverUrl, String caPem, String certPem, String keyPem) {
    return render(
        serverUrl,
        base64(caPem),
        "    client-certificate-data: "
            + quoted(base64(certPem))
            + "\n    client-key-data: "
            + quoted(base64(keyPem))
            + "\n");
  }

  /** A user authenticated by a bearer token (a ServiceAccount's). */
  public static String forToken(String serverUrl, String caData, String token) {
    return render(serverUrl, caData, "    token: " + quoted(token) + "\n");
  }

  /** The CA certificate of a client configuration as base64 data, wherever it was given. */
  public static String caData(Config config) {
    if (config.getCaCertData() != null) {
      return config.getCaCertData();
    }
    if (config.getCaCertFile() == null) {
      return null;
    }
    try {
      return Base64.getEncoder()
          .encodeToString(Files.readAllBytes(Path.of(config.getCaCertFile())));
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot read the CA file " + config.getCaCertFile(), e);
    }
  }

  // Written as text rather than through fabric8's model and Jackson's YAML writer: this runs on
  // the start path of a fresh JVM, where loading the serialization stack cost ~250 ms (JFR), and
  // every value is a URL, base64 or a token, quoted.
  private static String render(String serverUrl, String caData, String user) {
    return "apiVersion: v1\n"
        + "kind: Config\n"
        + "clusters:\n"
        + "- name: "
        + NAME
        + "\n  cluster:\n"
        + "    server: "
        + quoted(serverUrl)
        + "\n"
        + (caData == null ? "" : "    certificate-authority-data: " + quoted(caData) + "\n")
        + "users:\n"
        + "- name: "
        + NAME
        + "\n  user:\n"
        + user
        + "contexts:\n"
        + "- name: "
        + NAME
        + "\n  context:\n"
        + "    cluster: "
        + NAME
        + "\n    user: "
        + NAME
        + "\n    namespace: default\n"
        + "current-context: "
        + NAME
        + "\n";
  }

  /** A YAML double-quoted scalar; the values here never hold a quote or backslash, but check. */
  private static String quoted(String value) {
    if (value.matches(".*[\"\\\\\\p{Cntrl}].*")) {
      throw new IllegalArgumentException("Unexpected character in a kubeconfig value: " + value);
    }
    return "\"" + value + "\"";
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8));
  }
}
