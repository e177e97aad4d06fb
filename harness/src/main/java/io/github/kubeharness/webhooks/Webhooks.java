package io.github.kubeharness.webhooks;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.internal.ApiSeam;
import java.util.List;

/**
 * A project's webhooks served in the test JVM, as envtest serves them: on 127.0.0.1 over TLS with a
 * serving certificate from a CA of kube-harness's, each configuration's {@code clientConfig}
 * rewritten to that server, applied, and awaited until the API server really calls it.
 *
 * <p>In a {@code @ControllerTest} class, {@code webhooks} and {@code webhookHandlers} do all of
 * this for every test's namespace, and an injected {@code Webhooks} tells what was called. From
 * plain Java:
 *
 * <pre>{@code
 * try (Webhooks webhooks = Webhooks.serve(controlPlane, List.of("config/webhook"), new MyHandlers())) {
 *   webhooks.installCrds(List.of("config/crd/bases"), List.of());  // conversion webhooks rewritten
 *   try (AutoCloseable installed = webhooks.install("my-namespace")) {
 *     ...
 *   }
 * }
 * }</pre>
 */
public interface Webhooks extends AutoCloseable {

  /**
   * Starts a webhook server for {@code handlers} and reads the webhook manifests ({@code
   * Mutating}/{@code ValidatingWebhookConfiguration}s, CRD conversion patches). Every path the
   * manifests name must have a handler.
   */
  static Webhooks serve(
      ControlPlane controlPlane, List<String> manifests, WebhookHandlers handlers) {
    return ApiSeam.webhooks(controlPlane, manifests, handlers);
  }

  /**
   * Installs CRDs as {@link ControlPlane#installCrds} does, with each conversion webhook (the CRD's
   * own, or the manifests' patch for it) pointed at this server.
   *
   * @return how many CRDs were new or changed
   */
  int installCrds(List<String> crds, List<Class<?>> crdClasses);

  /**
   * Applies the admission configurations for objects in {@code namespace} (and cluster-scoped
   * ones): renamed {@code <name>-<namespace>}, namespace selector narrowed to it. Returns once the
   * API server calls them; closing the result deletes them.
   */
  AutoCloseable install(String namespace);

  /** The calls the API server made to these webhooks (in a test: since the test started). */
  List<WebhookCall> calls();

  /**
   * Certificate files for a webhook server the test runs itself ({@link WebhookRoutes#external}).
   */
  WebhookTls tls();

  /** The URL the API server is given for a path of the manifests. */
  String url(String path);

  /** Removes the configurations still installed and stops serving. */
  @Override
  void close();
}
