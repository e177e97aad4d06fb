package io.github.kubeharness.quarkus;

import io.fabric8.kubernetes.client.Config;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A kubeconfig as the {@code quarkus.kubernetes-client.*} properties Quarkus builds its client
 * from: Quarkus reads those, not a kubeconfig file, and they win over whatever kubeconfig the
 * machine has.
 *
 * <p>No property holds a secret, only the path of an owner-only file in the run root: an
 * {@code @QuarkusIntegrationTest} passes a test resource's properties to the application it
 * launches as {@code -D} arguments, which every local user reads in {@code /proc/<pid>/cmdline}.
 * The client key goes by {@code client-key-file}; a ServiceAccount's token, for which Quarkus has
 * no file property, by the kubeconfig file that fabric8 reads from the {@code kubeconfig} system
 * property in a launched application and that {@link KubeHarnessClientCustomizer} applies in the
 * test's own JVM.
 */
final class ClientProperties {

  static final String PREFIX = "quarkus.kubernetes-client.";

  /**
   * The path of the application's kubeconfig file for {@link KubeHarnessClientCustomizer}, which
   * applies it at each start: Quarkus keeps the {@code quarkus.kubernetes-client.*} properties of
   * the first.
   */
  static final String APPLICATION_KUBECONFIG = "kubeharness.quarkus.application-kubeconfig";

  /** fabric8's system property naming the kubeconfig file its {@code Config} starts from. */
  static final String FABRIC8_KUBECONFIG = "kubeconfig";

  private ClientProperties() {}

  /**
   * The properties for the kubeconfig {@code kubeconfigYaml}, which is also in {@code
   * kubeconfigFile}; its inline client certificate and key are written out with {@code privateFile}
   * (name, content; returns the new owner-only file).
   */
  static Map<String, String> of(
      String kubeconfigYaml, Path kubeconfigFile, BiFunction<String, String, Path> privateFile) {
    Config config = Config.fromKubeconfig(kubeconfigYaml);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(PREFIX + "api-server-url", config.getMasterUrl());
    putIfSet(properties, "ca-cert-data", config.getCaCertData()); // a certificate: public
    putIfSet(properties, "ca-cert-file", config.getCaCertFile());
    putIfSet(properties, "client-cert-file", config.getClientCertFile());
    putIfSet(properties, "client-key-file", config.getClientKeyFile());
    if (config.getClientKeyData() != null && !config.getClientKeyData().isBlank()) {
      putIfSet(
          properties,
          "client-cert-file",
          privateFile.apply("client.crt", pem(config.getClientCertData())).toString());
      putIfSet(
          properties,
          "client-key-file",
          privateFile.apply("client.key", pem(config.getClientKeyData())).toString());
    }
    putIfSet(properties, "client-key-algo", config.getClientKeyAlgo());
    // Our cluster, not a second one from Dev Services for Kubernetes.
    properties.put(PREFIX + "devservices.enabled", "false");
    properties.put(FABRIC8_KUBECONFIG, kubeconfigFile.toString());
    properties.put(APPLICATION_KUBECONFIG, kubeconfigFile.toString());
    return properties;
  }

  // A kubeconfig's *-data fields are base64 of the PEM text that Quarkus' *-file options read.
  private static String pem(String base64) {
    return new String(Base64.getMimeDecoder().decode(base64), StandardCharsets.UTF_8);
  }

  private static void putIfSet(Map<String, String> properties, String key, String value) {
    if (value != null && !value.isBlank()) {
      properties.put(PREFIX + key, value);
    }
  }
}
