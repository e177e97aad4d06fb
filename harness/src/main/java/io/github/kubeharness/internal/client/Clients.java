package io.github.kubeharness.internal.client;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;

/**
 * Every fabric8 client kube-harness builds: on the HTTP client implementation fabric8 finds on the
 * class path (vert.x unless the project chose another), with the kubeconfig's TLS made in memory
 * ({@link InMemoryTlsFactory}).
 */
public final class Clients {

  private Clients() {}

  /** A new client for {@code config}; the caller closes it. */
  public static KubernetesClient create(Config config) {
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new InMemoryTlsFactory(HttpClientUtils.getHttpClientFactory()))
        .build();
  }
}
