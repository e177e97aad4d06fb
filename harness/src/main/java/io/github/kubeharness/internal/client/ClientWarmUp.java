package io.github.kubeharness.internal.client;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Moves the fabric8 client's cold cost off the start-up path. In a fresh JVM the first client costs
 * a second or two (HTTP stack, TLS, Jackson, the model classes) and its first answer a few hundred
 * milliseconds more; paid on threads of their own, they overlap the processes' boot instead of
 * following it.
 */
public final class ClientWarmUp {

  private static final AtomicBoolean CLASSES_LOADED = new AtomicBoolean();

  private ClientWarmUp() {}

  /**
   * Once per JVM, loads the client's classes on a thread of its own, before any certificate or URL
   * exists: a client to nowhere is built (it connects to nothing) and closed.
   */
  public static void loadClassesInBackground() {
    if (CLASSES_LOADED.compareAndSet(false, true)) {
      daemon(
          () -> {
            Config nowhere = Config.empty();
            nowhere.setMasterUrl("https://127.0.0.1:1");
            // No CA: fabric8 would read the JDK's public CAs, which no client of a control plane
            // kube-harness started uses (Clients trusts its CA alone).
            nowhere.setTrustCerts(true);
            try (KubernetesClient client = Clients.create(nowhere)) {
              touchDeserialization(client);
            } catch (RuntimeException e) {
              // Only a warm-up: the real client reports its own problems.
            }
          });
    }
  }

  /** Starts building the client; the future completes with it (the caller closes it). */
  public static CompletableFuture<KubernetesClient> start(Supplier<KubernetesClient> factory) {
    return CompletableFuture.supplyAsync(
        () -> {
          KubernetesClient client = factory.get();
          touchDeserialization(client);
          return client;
        },
        ClientWarmUp::daemon);
  }

  // Loads the deserialization path the first real answer (a Namespace) takes.
  private static void touchDeserialization(KubernetesClient client) {
    client
        .getKubernetesSerialization()
        .unmarshal(
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"warm-up\"}}",
            Namespace.class);
  }

  private static void daemon(Runnable task) {
    Thread thread = new Thread(task, "kube-harness-client-warm-up");
    thread.setDaemon(true);
    thread.start();
  }
}
