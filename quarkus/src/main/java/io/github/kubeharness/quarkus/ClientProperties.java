package io.github.kubeharness.quarkus;

import io.fabric8.kubernetes.client.Config;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A kubeconfig as the {@code quarkus.kubernetes-client.*} properties Quarkus builds its client
 * from: Quarkus reads those, not a kubeconfig file, and they win over whatever kubeconfig the
 * machine has.
 */
final class ClientProperties {

  static final String PREFIX = "quarkus.kubernetes-client.";

  /**
   * The application's kubeconfig (YAML) for {@link KubeHarnessClientCustomizer}, which applies it
   * at each start: Quarkus keeps the {@code quarkus.kubernetes-client.*} properties of the first.
   */
  static final String APPLICATION_KUBECONFIG = "kubeharness.quarkus.application-kubeconfig";

  private ClientProperties() {}

  static Map<String, String> of(String kubeconfigYaml) {
    Config config = Config.fromKubeconfig(kubeconfigYaml);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(PREFIX + "api-server-url", config.getMasterUrl());
    putIfSet(properties, "ca-cert-data", config.getCaCertData());
    putIfSet(properties, "ca-cert-file", config.getCaCertFile());
    putIfSet(properties, "client-cert-data", config.getClientCertData());
    putIfSet(properties, "client-cert-file", config.getClientCertFile());
    putIfSet(properties, "client-key-data", config.getClientKeyData());
    putIfSet(properties, "client-key-file", config.getClientKeyFile());
    putIfSet(properties, "client-key-algo", config.getClientKeyAlgo());
    // A kubeconfig's "token:" lands in the auto-refreshed token slot.
    putIfSet(
        properties,
        "token",
        config.getOauthToken() != null ? config.getOauthToken() : config.getAutoOAuthToken());
    // Our cluster, not a second one from Dev Services for Kubernetes.
    properties.put(PREFIX + "devservices.enabled", "false");
    properties.put(APPLICATION_KUBECONFIG, kubeconfigYaml);
    return properties;
  }

  private static void putIfSet(Map<String, String> properties, String key, String value) {
    if (value != null && !value.isBlank()) {
      properties.put(PREFIX + key, value);
    }
  }
}
