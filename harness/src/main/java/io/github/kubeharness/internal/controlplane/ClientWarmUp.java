package io.github.kubeharness.internal.controlplane;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Builds a fabric8 client on a thread of its own while the control plane boots. In a fresh JVM the
 * first client costs about a second (HTTP stack, TLS, Jackson, the model classes) and its first
 * answer a few hundred milliseconds more; paid here, it overlaps kube-apiserver's start instead of
 * following it.
 */
public final class ClientWarmUp {

  private ClientWarmUp() {}

  /** Starts building the client; the future completes with it (the caller closes it). */
  public static CompletableFuture<KubernetesClient> start(Supplier<KubernetesClient> factory) {
    return CompletableFuture.supplyAsync(
        () -> warm(factory.get()),
        task -> {
          Thread thread = new Thread(task, "kube-harness-client-warm-up");
          thread.setDaemon(true);
          thread.start();
        });
  }

  private static KubernetesClient warm(KubernetesClient client) {
    // Loads the deserialization path the first real answer (a Namespace) takes.
    client
        .getKubernetesSerialization()
        .unmarshal(
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"warm-up\"}}",
            Namespace.class);
    return client;
  }
}
