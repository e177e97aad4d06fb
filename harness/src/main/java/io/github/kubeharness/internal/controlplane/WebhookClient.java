package io.github.kubeharness.internal.controlplane;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * kube-apiserver's identity towards admission webhooks: a client certificate of the run's CA, named
 * {@value #USER}, which kube-apiserver presents because its admission configuration ({@code
 * --admission-control-config-file}) gives the two webhook plugins a kubeconfig holding it. The
 * webhook server in the test JVM accepts no other caller.
 *
 * <p>Admission only: kube-apiserver calls CRD conversion webhooks with no client credential at all
 * (apiextensions-apiserver's {@code webhook_converter.go} builds its resolver from an empty
 * kubeconfig, and nothing overrides it), so this file cannot reach them.
 */
public final class WebhookClient {

  /** The common name of the certificate; the webhook server refuses any other. */
  public static final String USER = "kube-harness:kube-apiserver-webhook-client";

  /** Whether {@code commonName} is the name of kube-apiserver's webhook client certificate. */
  public static boolean isNamed(String commonName) {
    return USER.equals(commonName);
  }

  public static final String ADMISSION_CONFIG = "admission-config.yaml";
  static final String KUBECONFIG = "webhook-client.kubeconfig";

  private WebhookClient() {}

  /**
   * The two files kube-apiserver reads, by name: its admission configuration, and the kubeconfig
   * that configuration names by its absolute path ({@code pkiDirectory}, as the apiserver sees it:
   * kube-apiserver refuses a relative one).
   */
  static Map<String, String> files(TinyCa.Issued certificate, String pkiDirectory) {
    String pki = pkiDirectory.endsWith("/") ? pkiDirectory : pkiDirectory + "/";
    Map<String, String> files = new LinkedHashMap<>();
    files.put(ADMISSION_CONFIG, admissionConfiguration(pki + KUBECONFIG));
    files.put(KUBECONFIG, kubeconfig(certificate));
    return files;
  }

  private static String admissionConfiguration(String kubeconfigPath) {
    StringBuilder yaml =
        new StringBuilder(
            "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n");
    for (String plugin : new String[] {"ValidatingAdmissionWebhook", "MutatingAdmissionWebhook"}) {
      yaml.append("- name: ")
          .append(plugin)
          .append("\n  configuration:\n")
          .append("    apiVersion: apiserver.config.k8s.io/v1\n")
          .append("    kind: WebhookAdmissionConfiguration\n")
          .append("    kubeConfigFile: \"")
          .append(kubeconfigPath)
          .append("\"\n");
    }
    return yaml.toString();
  }

  // The user "*" is the one kube-apiserver's resolver uses for every webhook host
  // (k8s.io/apiserver/pkg/util/webhook/authentication.go): the webhook server's port is free
  // and changes, so no host:port entry could name it in advance.
  private static String kubeconfig(TinyCa.Issued certificate) {
    return "apiVersion: v1\n"
        + "kind: Config\n"
        + "users:\n"
        + "- name: \"*\"\n"
        + "  user:\n"
        + "    client-certificate-data: \""
        + base64(certificate.certificatePem())
        + "\"\n"
        + "    client-key-data: \""
        + base64(certificate.privateKeyPem())
        + "\"\n";
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }
}
