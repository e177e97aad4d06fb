package io.github.kubeharness;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.util.List;

/**
 * An identity of a control plane, made by {@link ControlPlane#addUser}: its name, groups and a
 * kubeconfig that authenticates as it.
 */
public record KubeUser(String name, List<String> groups, String kubeconfig, Path kubeconfigFile) {

  /** fabric8 client configuration acting as this user. */
  public Config config() {
    return Config.fromKubeconfig(kubeconfig);
  }

  /** A new client acting as this user; the caller closes it. */
  public KubernetesClient newClient() {
    return new KubernetesClientBuilder().withConfig(config()).build();
  }
}
