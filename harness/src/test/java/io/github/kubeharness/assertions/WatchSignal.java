package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A client, like the test's, that tells when it first sends a watch request. An assertion's
 * informer lists first and then watches from the list's resourceVersion, so whatever is written
 * once the watch was asked for reaches the assertion as a change, not as its initial state: a test
 * acts on this event instead of a guessed delay.
 */
final class WatchSignal implements AutoCloseable {

  private final CompletableFuture<Void> opened = new CompletableFuture<>();
  private final KubernetesClient client;

  private WatchSignal(KubernetesClient like) {
    client =
        new KubernetesClientBuilder()
            // A namespaced view keeps its namespace beside its configuration, not in it.
            .withConfig(
                new ConfigBuilder(like.getConfiguration())
                    .withNamespace(like.getNamespace())
                    .build())
            .withHttpClientBuilderConsumer(
                builder ->
                    builder.addOrReplaceInterceptor(
                        "watch-signal",
                        new Interceptor() {
                          @Override
                          public void before(
                              BasicBuilder request, HttpRequest sent, RequestTags tags) {
                            String query = sent.uri().getRawQuery();
                            if (query != null && query.contains("watch=true")) {
                              opened.complete(null);
                            }
                          }
                        }))
            .build();
  }

  /** A client with the configuration (identity, namespace) of {@code like}. */
  static WatchSignal like(KubernetesClient like) {
    return new WatchSignal(like);
  }

  /** The client to hand to the assertion under test. */
  KubernetesClient client() {
    return client;
  }

  /** Completes when the client first asks for a watch. */
  CompletionStage<Void> watching() {
    return opened;
  }

  @Override
  public void close() {
    client.close();
  }
}
