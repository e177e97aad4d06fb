package io.github.kubeharness.junit.scenarios;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * A client that sends each request once: fabric8 retries a 5xx or a refused connection with
 * back-off by default, which would hide the injected answer, failed webhook call or restart a
 * scenario looks at.
 */
final class OneTry {

  private OneTry() {}

  static KubernetesClient client(Config config) {
    return new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder(config).withRequestRetryBackoffLimit(0).build())
        .build();
  }
}
